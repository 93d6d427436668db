"""Shape: a ProcessPoolExecutor wedged by a worker that died while sending its result
(genvarloader #263's whole signature, without genvarloader).

Three spawn workers each return 64 MiB (more than a pipe holds, so sending takes many writes).
A watcher thread in the launcher SIGKILLs the first worker it sees blocked in write() on a
pipe, as the OOM killer would: the worker dies holding the result queue's lock with half a
frame written. CPython never notices: the dead worker stays a zombie, the manager thread waits
in Connection._recv for the rest of the frame, the other workers park on the lock once their
task is done, and the main thread waits in Future.result forever. Prints `killed PID`, then
`ready` once the dead worker has stayed unreaped for a second (a /proc poll).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import multiprocessing as mp
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

N = 3


def task(i: int) -> bytes:
    return bytes(64 << 20)


def writing_a_pipe(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            parts = fh.read().split()
        return parts[0] == "1" and os.readlink(f"/proc/{pid}/fd/{int(parts[1], 16)}").startswith("pipe:")
    except (OSError, IndexError, ValueError):
        return False


def zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def killer(ex: ProcessPoolExecutor) -> None:
    end = time.monotonic() + 90
    while time.monotonic() < end:
        for pid in list(ex._processes):
            if writing_a_pipe(pid):
                os.kill(pid, signal.SIGKILL)
                print(f"killed {pid}", flush=True)
                seen = None
                while time.monotonic() < end:  # polling /proc: the dead worker stays unreaped
                    if not zombie(pid):
                        seen = None
                    elif seen is None:
                        seen = time.monotonic()
                    elif time.monotonic() - seen > 1.0:
                        print("ready", flush=True)
                        return
                    time.sleep(0.01)
                return
        time.sleep(0.001)  # polling /proc for a worker in write()


def main() -> None:
    ex = ProcessPoolExecutor(N, mp_context=mp.get_context("spawn"))
    futures = [ex.submit(task, i) for i in range(N)]
    threading.Thread(target=killer, args=(ex,), daemon=True).start()
    for f in futures:
        print(len(f.result()), flush=True)
    print("not wedged", flush=True)


if __name__ == "__main__":
    main()
