import multiprocessing as mp
import os
import signal
import sys
import threading
import time

from tqdm import tqdm


def wchan(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/wchan") as f:
            return f.read()
    except OSError:
        return ""


def worker(log_w: int) -> None:
    # the worker reports progress lines through tqdm.write to the job's log pipe (file=), which holds tqdm's
    # write lock (a multiprocessing RLock shared with the parent) around every write
    log = os.fdopen(log_w, "w")
    for i in range(1_000_000):
        tqdm.write(f"worker: shard {i} loaded " + "." * 200, file=log)


def run(thread_lock: bool, drain_after: float | None = None) -> None:
    if thread_lock:
        tqdm.set_lock(threading.RLock())              # the fix: no cross-process lock
    bar = tqdm(total=3, file=sys.stderr, mininterval=0, desc="shards")
    ctx = mp.get_context("fork")
    log_r, log_w = os.pipe()                          # the log collector reads it (or has stopped reading)
    p = ctx.Process(target=worker, args=(log_w,), name="loader")
    p.start()
    os.close(log_w)
    deadline = time.time() + 10
    while time.time() < deadline and "pipe_write" not in wchan(p.pid):
        time.sleep(0.05)                              # the worker is stuck writing, inside tqdm.write
    if drain_after is None:
        time.sleep(0.5)
        os.kill(p.pid, signal.SIGKILL)                # the supervisor's deadline kills the stuck worker
        p.join()
        print("worker killed, exit code", p.exitcode, flush=True)
    else:
        def collector() -> None:                      # the log collector resumes reading after drain_after s
            time.sleep(drain_after)
            while os.read(log_r, 65536):
                pass
        threading.Thread(target=collector, daemon=True).start()
    sys.stderr.write("\n")                            # end the bar's line before our own output
    sys.stderr.flush()
    print("ready", flush=True)
    time.sleep(0.2)
    bar.update(1)                                     # refresh: takes tqdm's write lock
    if drain_after is not None:
        os.kill(p.pid, signal.SIGTERM)
        p.join()
    bar.update(2)
    bar.close()
    print("job done", flush=True)
