# Yelp/Tron#591 and bpo-14976 (python/cpython#59181, "queue.Queue() is not reentrant, so signals
# and GC can cause deadlocks"): a signal handler enqueues into a queue.Queue while the interrupted
# main thread is inside that queue's put(), holding its mutex. Here the signal lands while put()
# compares items (PriorityQueue), i.e. with the queue's mutex held.
import os, queue, signal

signals = queue.PriorityQueue()

def handler(signum, frame):
    print("ready", flush=True)
    signals.put((0, signum))  # takes signals.mutex, already held below on this same thread

signal.signal(signal.SIGUSR1, handler)

class Item:
    def __init__(self, n, fire=False):
        self.n, self.fire = n, fire
    def __lt__(self, other):
        if self.fire:
            self.fire = False
            os.kill(os.getpid(), signal.SIGUSR1)  # the signal arrives during put()
        return self.n < other.n

signals.put((1, Item(1)))
signals.put((1, Item(2, fire=True)))
print("drained", signals.qsize())
