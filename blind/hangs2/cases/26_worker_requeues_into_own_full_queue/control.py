# Control: the fix of qmstr#54 / clustershell#145: items that are not ready go to a separate,
# unbounded retry list instead of the bounded queue (the worker never blocks on its own queue).
import collections, queue, threading

q: "queue.Queue[int]" = queue.Queue(maxsize=4)
retry: "collections.deque[int]" = collections.deque()

def worker():
    while True:
        item = q.get()
        retry.append(item)           # not ready: parked aside, never put back into q

threading.Thread(target=worker, daemon=True).start()
for i in range(5):
    q.put(i)
print("ready", flush=True)
for i in range(5, 100):
    q.put(i)
print("done", len(retry) > 0)
