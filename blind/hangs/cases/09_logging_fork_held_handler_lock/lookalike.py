# Look-alike: same shape (a background thread inside a slow log handler, a forked child that logs,
# the parent in waitpid), but the child's log call waits on a lock held by a live thread in the
# child itself, which releases it after 16 s.
import logging, os, sys, threading, time

log = logging.getLogger("job")
log.addHandler(logging.StreamHandler(sys.stderr))
log.setLevel(logging.INFO)
pid = os.fork()
if pid == 0:
    handler = log.handlers[0]
    held = threading.Event()
    def slow_emit():
        with handler.lock:
            held.set()
            time.sleep(16)
    threading.Thread(target=slow_emit).start()
    held.wait(10)
    log.info("child started")   # waits ~16 s for the live holder
    os._exit(0)
print("ready", flush=True)
os.waitpid(pid, 0)
print("done")
