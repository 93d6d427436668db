# Look-alike: a worker thread holds the lock for 16 s (slow scoring), then releases it.
import threading, time

lock = threading.Lock()
results = []
taken = threading.Event()

def score(sentence):
    lock.acquire()
    taken.set()
    time.sleep(16)
    results.append(len(sentence))
    lock.release()

t = threading.Thread(target=score, args=("a b c",))
t.start()
taken.wait()
print("ready", flush=True)
lock.acquire()
print("done", results)
