# Control: the fix of misp-takedown#4: try/except/finally in the consumer, task_done() always runs.
import multiprocessing as mp

def check_url(url):
    raise SystemExit(f"cannot reach {url}")

class Consumer(mp.Process):
    def __init__(self, q):
        super().__init__()
        self.q = q
    def run(self):
        while True:
            item = self.q.get()
            try:
                if item is None:
                    break
                try:
                    check_url(item)
                except BaseException as e:
                    print("task failed:", e)
            finally:
                self.q.task_done()

if __name__ == "__main__":
    tasks = mp.JoinableQueue()
    c = Consumer(tasks)
    c.start()
    tasks.put("http://example.invalid/")
    tasks.put(None)
    print("ready", flush=True)
    tasks.join()
    c.join()
    print("done")
