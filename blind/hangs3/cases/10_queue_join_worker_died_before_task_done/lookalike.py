# Look-alike: the worker is alive and slow: its first job takes 16 s; join() waits, then returns.
import queue
import threading
import time

job_queue: "queue.Queue[str]" = queue.Queue()


def run_node(job):
    if job == "source.fresher":
        time.sleep(16)


def worker():
    while True:
        job = job_queue.get()
        run_node(job)
        job_queue.task_done()


for name in ("source.fresher", "model.a", "model.b"):
    job_queue.put(name)
t = threading.Thread(target=worker, name="runner-worker", daemon=True)
t.start()
print("ready", flush=True)
job_queue.join()
print("done")
