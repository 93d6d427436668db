# Look-alike: a thread logs through the same kind of loguru sink while another thread is inside the
# sink (holding loguru's handler lock) for 16 s (a slow disk); the first waits for the lock.
import sys, threading, time
from loguru import logger

logger.remove()
inside = threading.Event()
def sink(message):
    if "slow" in message:
        inside.set()
        time.sleep(16)
    sys.stdout.write(message)

logger.add(sink, format="{message}")
t = threading.Thread(target=logger.info, args=("slow write",))
t.start()
inside.wait(10)
print("ready", flush=True)
logger.info("processing batch")
t.join()
print("done")
