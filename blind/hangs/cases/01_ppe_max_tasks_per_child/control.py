# Same program with the fix of python/cpython#140900 (gh-115634): a worker that retired is
# replaced whenever the pool is below max_workers, without consulting the idle-worker semaphore.
import os
from concurrent.futures import ProcessPoolExecutor

class FixedPPE(ProcessPoolExecutor):
    def _adjust_process_count(self):
        while len(self._processes) < self._max_workers:
            self._spawn_process()

def work(i):
    return os.getpid()

if __name__ == "__main__":
    with FixedPPE(1, max_tasks_per_child=2) as exe:
        futs = [exe.submit(work, i) for i in range(10)]
        futs[0].result(); futs[1].result()
        print("ready", flush=True)
        pids = [f.result() for f in futs]
    print("done", len(set(pids)), "workers")
