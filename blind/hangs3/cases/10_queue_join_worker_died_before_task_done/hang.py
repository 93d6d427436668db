# dbt-labs/dbt-core#5602 (Execution of job_queue.join hangs with exceptions): a worker thread takes a
# job from a queue.Queue and dies on an exception before task_done(); the runner's queue.join() waits
# for a count that nobody will decrement. The pattern reproduced with the standard library, CPython 3.11.7.
import queue
import threading

job_queue: "queue.Queue[str]" = queue.Queue()


def run_node(job):
    raise AttributeError(f"{job}: 'ParsedSourceDefinition' object has no attribute 'node_info'")


def worker():
    while True:
        job = job_queue.get()
        run_node(job)            # raises: the thread dies, task_done() is never called
        job_queue.task_done()


threading.excepthook = lambda args: print("worker died:", args.exc_value, flush=True)
for name in ("source.fresher", "model.a", "model.b"):
    job_queue.put(name)
t = threading.Thread(target=worker, name="runner-worker", daemon=True)
t.start()
t.join()                         # the worker is gone ...
print("ready", flush=True)
job_queue.join()                 # ... and the main thread waits for task_done() forever
print("done")
