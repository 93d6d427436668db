# Look-alike: the parent joins a child that puts a small result (fits the pipe) and then works
# (sleeps) 16 s before it exits.
import multiprocessing as mp, time

def work(q):
    q.put(b"x" * 1000)
    time.sleep(16)

if __name__ == "__main__":
    q = mp.Queue()
    p = mp.Process(target=work, args=(q,))
    p.start()
    print("ready", flush=True)
    p.join()
    print("got", len(q.get()))
