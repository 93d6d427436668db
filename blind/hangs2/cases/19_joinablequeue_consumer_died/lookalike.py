# Look-alike: the consumer's task works 16 s, then task_done(); the parent waits in tasks.join().
import multiprocessing as mp, time

def check_url(url):
    time.sleep(16)

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
    c.join()
    print("done")
