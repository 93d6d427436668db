# Control: the fix of n8n#19084 / the docs: drain the queue before joining the child.
import multiprocessing as mp

def work(q):
    q.put(b"x" * (1 << 20))

if __name__ == "__main__":
    q = mp.Queue()
    p = mp.Process(target=work, args=(q,))
    p.start()
    print("ready", flush=True)
    data = q.get()
    p.join()
    print("got", len(data))
