# n8n-io/n8n#19084 (and the multiprocessing docs, "Joining processes that use queues"): the parent
# joins the child before it reads the queue; the child's feeder thread is blocked writing a 1 MiB
# result into the full pipe, and the child's exit joins that feeder thread.
import multiprocessing as mp

def work(q):
    q.put(b"x" * (1 << 20))

if __name__ == "__main__":
    q = mp.Queue()
    p = mp.Process(target=work, args=(q,))
    p.start()
    print("ready", flush=True)
    p.join()
    print("got", len(q.get()))
