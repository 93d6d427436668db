import sched
import threading
import time


def run(nightly_in: float, add_before_start: bool) -> None:
    s = sched.scheduler(time.monotonic, time.sleep)
    s.enter(nightly_in, 1, lambda: print("nightly compaction", flush=True))   # the only event so far
    done = threading.Event()

    def flush_now() -> None:
        print("flushed metrics", flush=True)
        done.set()

    if add_before_start:
        s.enter(0.5, 0, flush_now)
    t = threading.Thread(target=s.run, name="scheduler", daemon=True)
    t.start()
    time.sleep(0.5)
    if not add_before_start:
        s.enter(0.5, 0, flush_now)          # added while run() sleeps towards the nightly event
    print("ready", flush=True)
    done.wait()                             # the job waits for the flush before exiting
    print("job finished", flush=True)
