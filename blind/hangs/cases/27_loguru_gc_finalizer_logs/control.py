# Control: the same program with loguru 0.7.0, which detects a log call made from a finalizer
# while its lock is held on the same thread (the fix of loguru PR #720) instead of waiting on itself.
import gc, sys
from loguru import logger

logger.remove()
entered = []
def sink(message):
    if not entered:
        entered.append(1)
        print("ready", flush=True)
        gc.enable()                      # the collector may run at any allocation from here on
    _ = [dict() for _ in range(20)]      # some allocation while handling the record
    sys.stdout.write(message)

logger.add(sink, format="{message}")

class Resource:
    def __del__(self):
        logger.info("resource finalized")

def make_garbage():
    a = Resource(); b = Resource()
    a.other, b.other = b, a              # a cyclic isolate, freed only by the cyclic GC

gc.disable()
for _ in range(50):
    make_garbage()
gc.set_threshold(1)
logger.info("processing batch")          # GC runs inside the sink -> finalizer logs
print("done")
