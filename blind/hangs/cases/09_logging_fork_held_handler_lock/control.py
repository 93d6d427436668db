# Control: the same program on Python 3.8, whose logging module re-creates its handlers' locks
# in the child after fork (os.register_at_fork, the bpo-6721 fix): the child logs and exits.
import logging, os, sys, threading, time

class SlowStream:
    """A log sink that is slow to accept a record (a network share, a full pipe...)."""
    def __init__(self):
        self.entered = threading.Event()
    def write(self, s):
        self.entered.set()
        time.sleep(8)
        sys.stderr.write(s)
    def flush(self):
        pass

stream = SlowStream()
handler = logging.StreamHandler(stream)
log = logging.getLogger("job")
log.addHandler(handler)
log.setLevel(logging.INFO)

threading.Thread(target=log.info, args=("heartbeat from a background thread",), daemon=True).start()
stream.entered.wait(10)  # the background thread now holds handler.lock
pid = os.fork()
if pid == 0:
    log.info("child started")   # blocks forever on handler.lock
    os._exit(0)
print("ready", flush=True)
os.waitpid(pid, 0)
print("done")
