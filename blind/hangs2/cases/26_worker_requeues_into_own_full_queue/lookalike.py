# Look-alike: the producer blocks on the full bounded queue while the only worker is busy 16 s on
# its first item, then drains the queue.
import queue, threading, time

q: "queue.Queue[int]" = queue.Queue(maxsize=4)

def worker():
    first = True
    while True:
        item = q.get()
        if first:
            time.sleep(16)
            first = False
        q.task_done()

threading.Thread(target=worker, daemon=True).start()
for i in range(5):
    q.put(i)
print("ready", flush=True)
for i in range(5, 100):
    q.put(i)
print("done")
