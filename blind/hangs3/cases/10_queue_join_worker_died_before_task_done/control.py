# Control: the fix (mark the job done whatever happens, and keep the worker alive): task_done() in a
# finally block; join() returns.
import queue
import threading

job_queue: "queue.Queue[str]" = queue.Queue()


def run_node(job):
    raise AttributeError(f"{job}: 'ParsedSourceDefinition' object has no attribute 'node_info'")


def worker():
    while True:
        job = job_queue.get()
        try:
            run_node(job)
        except Exception as e:
            print("job failed:", e, flush=True)
        finally:
            job_queue.task_done()


for name in ("source.fresher", "model.a", "model.b"):
    job_queue.put(name)
t = threading.Thread(target=worker, name="runner-worker", daemon=True)
t.start()
print("ready", flush=True)
job_queue.join()
print("done")
