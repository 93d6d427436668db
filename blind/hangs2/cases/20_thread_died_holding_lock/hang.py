# Maluuba/nlg-eval#25 ("module was hanging when exception occurred in one thread while others were
# waiting on lock"): a worker takes a threading.Lock with acquire(), raises before release(), and
# its thread ends; the main thread then waits for the lock forever.
import threading

lock = threading.Lock()
results = []

def score(sentence):
    lock.acquire()
    if not sentence:
        raise ValueError("empty sentence")   # the thread dies holding the lock
    results.append(len(sentence))
    lock.release()

t = threading.Thread(target=score, args=("",))
t.start()
t.join()
print("ready", flush=True)
lock.acquire()
print("done", results)
