# Control: the fix of nlg-eval#25: take the lock with `with`, so it is released on the exception.
import threading

lock = threading.Lock()
results = []

def score(sentence):
    with lock:
        if not sentence:
            raise ValueError("empty sentence")   # the with block releases the lock
        results.append(len(sentence))

t = threading.Thread(target=score, args=("",))
t.start()
t.join()
print("ready", flush=True)
lock.acquire()
print("done", results)
