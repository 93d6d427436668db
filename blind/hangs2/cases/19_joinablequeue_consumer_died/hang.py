# MISP/misp-takedown#4: a consumer process runs a task unguarded; the task raises, the consumer dies
# before task_done(), and the parent blocks forever in tasks.join().
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
            if item is None:
                self.q.task_done()
                break
            check_url(item)
            self.q.task_done()

if __name__ == "__main__":
    tasks = mp.JoinableQueue()
    c = Consumer(tasks)
    c.start()
    tasks.put("http://example.invalid/")
    tasks.put(None)
    print("ready", flush=True)
    tasks.join()
    print("done")
