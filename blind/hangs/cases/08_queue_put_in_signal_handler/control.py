# Control: the fix used by Tron#591 / NordicSemiconductor/pc-ble-driver-py#232 (bpo-14976): the
# handler hands the signal to a reentrant queue.SimpleQueue; the consumer merges it later.
import os, queue, signal

signals = queue.PriorityQueue()
pending = queue.SimpleQueue()

def handler(signum, frame):
    print("ready", flush=True)
    pending.put((0, signum))  # reentrant: safe inside another put()

signal.signal(signal.SIGUSR1, handler)

class Item:
    def __init__(self, n, fire=False):
        self.n, self.fire = n, fire
    def __lt__(self, other):
        if self.fire:
            self.fire = False
            os.kill(os.getpid(), signal.SIGUSR1)
        return self.n < other.n

signals.put((1, Item(1)))
signals.put((1, Item(2, fire=True)))
while not pending.empty():
    signals.put(pending.get())
print("drained", signals.qsize())
