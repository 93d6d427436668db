"""A launcher wedged the way genvarloader #263's was, for the README's tour of `inspect`.

``pid=$(python examples/wedged.py)`` starts it in the background and prints its pid once it is
wedged, then returns: a `ProcessPoolExecutor` (spawn) whose worker is SIGKILLed while sending a
64 MiB result, as the OOM killer would. The worker dies holding the result queue's lock with half
a frame written; the executor's manager thread waits for the rest of the frame forever, the
other workers park on the lock, and the main thread waits in ``Future.result()``.

``kill PID`` ends it and its workers (so does its own limit, ten minutes, if nobody does).
"""

# ruff: noqa: T201  (printing `ready` and the pid is the protocol)

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from types import FrameType

WORKERS = 3
LIFETIME_S = 600.0


def result(i: int) -> bytes:
    """A task whose result is larger than a pipe holds: sending it takes many writes."""
    return bytes(64 << 20)


def _in_pipe_write(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            parts = fh.read().split()
        return parts[0] == "1" and os.readlink(f"/proc/{pid}/fd/{int(parts[1], 16)}").startswith("pipe:")
    except (OSError, IndexError, ValueError):
        return False


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def _kill_a_sender(pool: ProcessPoolExecutor) -> None:
    """SIGKILL the first worker seen writing its result; say `ready` once it stays unreaped."""
    end = time.monotonic() + 90
    while time.monotonic() < end:
        for pid in list(pool._processes):
            if _in_pipe_write(pid):
                os.kill(pid, signal.SIGKILL)
                while time.monotonic() < end and not _zombie(pid):
                    time.sleep(0.01)  # a /proc poll: the kill lands
                time.sleep(1.0)  # the manager thread had its chance to notice (it never does)
                print("ready", flush=True)
                return
        time.sleep(0.001)  # a /proc poll for a worker in write()


def launcher() -> None:
    pool = ProcessPoolExecutor(WORKERS, mp_context=mp.get_context("spawn"))

    def end(signum: int = signal.SIGTERM, frame: FrameType | None = None) -> None:
        for pid in list(pool._processes):  # its workers go with it
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        os._exit(0)

    signal.signal(signal.SIGTERM, end)
    threading.Timer(LIFETIME_S, end).start()
    futures = [pool.submit(result, i) for i in range(WORKERS)]
    threading.Thread(target=_kill_a_sender, args=(pool,), daemon=True).start()
    for f in futures:
        f.result()
    print("not wedged", flush=True)
    end()


def main() -> None:
    """Start the launcher in its own session and return once it is wedged, printing its pid."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "--launcher"],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # the resource tracker's leak warning when it is killed
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()  # bounded: the launcher gives up after 90 s
    if line != "ready":
        proc.kill()
        sys.exit(f"the launcher did not wedge ({line or 'no output'})")
    print(proc.pid)


if __name__ == "__main__":
    launcher() if sys.argv[1:] == ["--launcher"] else main()
