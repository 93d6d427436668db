# clustershell/clustershell#145 ("EnginePort queue full deadlock": a blocking Queue.put() on a full
# queue whose only reader is the blocked caller) and QMSTR/qmstr#54 (the insert routine locks itself
# "when trying to put back a node, that is not yet ready, to the queue"): the only worker puts a
# not-yet-ready item back into its own bounded queue while the producer keeps it full.
import queue, threading

q: "queue.Queue[int]" = queue.Queue(maxsize=4)
ready_ids = set()

def worker():
    while True:
        item = q.get()
        if item not in ready_ids:
            q.put(item)              # put it back: blocks while the queue is full
            continue
        q.task_done()

threading.Thread(target=worker, daemon=True).start()
for i in range(5):                   # keeps the queue full
    q.put(i)
print("ready", flush=True)
for i in range(5, 100):
    q.put(i)
print("done")
