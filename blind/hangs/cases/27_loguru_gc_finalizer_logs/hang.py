# Delgan/loguru#712 / PR #720 ("Avoid deadlock caused by generational GC and object
# finalizers"): while a message is being written (loguru's handler lock held), allocation in the
# sink triggers the cyclic garbage collector, which runs a finalizer that logs; the finalizer's
# log call waits for the handler lock held further down the same thread. loguru 0.6.0.
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
