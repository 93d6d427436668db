"""Shape: a launcher waiting on a healthy process pool (argv[1] says which wait), its workers
busy (a CPU loop) or asleep (argv[2]: busy | sleep) for minutes.

Why it matters: every thread of the launcher is asleep and its main thread waits on a futex
with no timeout (Future.result, a map, as_completed, AsyncResult.get): one look at the launcher
alone shows a closed wait set unless it follows the wait to the pool's result-reading thread,
which is in poll()/read() on its workers' pipes. A healthy launcher; a false "deadlock" here is
the mistake gvlstress made on 7 of 7 real launchers. Prints `children PIDS`, then `ready` once
every task has started (each touches a file), with the main thread already in its wait.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import multiprocessing as mp
import os
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

N = 2


def task(args: tuple[str, str, int]) -> int:
    where, how, i = args
    open(os.path.join(where, f"{i}-{os.getpid()}"), "w").close()
    end = time.monotonic() + 600
    n = 0
    while time.monotonic() < end:
        if how == "sleep":
            time.sleep(600)
        n += 1
    return n


def announce(where: str) -> None:
    """Print the workers and `ready` once every task has started (a thread that then ends)."""
    end = time.monotonic() + 90
    while time.monotonic() < end:
        started = os.listdir(where)
        if len(started) >= N:
            print("children " + " ".join(sorted(x.split("-")[1] for x in started)), flush=True)
            print("ready", flush=True)
            return
        time.sleep(0.01)  # polling the marker files the tasks write


def main() -> None:
    wait, how = sys.argv[1], sys.argv[2]
    where = tempfile.mkdtemp(prefix="gvlstress-launcher-")
    jobs = [(where, how, i) for i in range(N)]
    threading.Thread(target=announce, args=(where,), daemon=True).start()
    ctx = mp.get_context("spawn")
    if wait.startswith("executor"):
        with ProcessPoolExecutor(N, mp_context=ctx) as ex:
            if wait == "executor-result":
                futures = [ex.submit(task, j) for j in jobs]
                print(futures[0].result())
            elif wait == "executor-map":
                print(list(ex.map(task, jobs)))
            else:
                print([f.result() for f in as_completed([ex.submit(task, j) for j in jobs])])
    else:
        with ctx.Pool(N) as pool:
            if wait == "pool-map":
                print(pool.map(task, jobs))
            elif wait == "pool-apply":
                print([r.get() for r in [pool.apply_async(task, (j,)) for j in jobs]])
            else:
                print(list(pool.imap(task, jobs)))


if __name__ == "__main__":
    main()
