"""Jobs for `gvlstress watch`'s tests: healthy ones that end by themselves after quiet spells, and
ones that hang. ``python watch_jobs.py MODE [SECONDS]``.

- ``sleep``: sleeps, exits 0 (a quiet spell that is idle);
- ``compute``: a pure Python loop touching no new memory, exits 0 (a quiet spell that is busy:
  CPU alone is not progress, and the look must not call it a hang);
- ``pool``: a multiprocessing.Pool between tasks for a while, then a map, exits 0;
- ``pool-compute``: a multiprocessing.Pool(2) whose workers compute in plain Python the whole
  time (the commonest data job; issue 42: watch called it a deadlock), exits 0;
- ``executor-numpy``: a ProcessPoolExecutor(2) over spawn whose workers compute in numpy,
  exits 0;
- ``feeder``: waits in wait() for a ``cat`` child reading its stdin, which a thread of the job
  writes and closes after SECONDS: a healthy look-alike of a parent that never closes a child's
  stdin, exits 0;
- ``peer``: waits on a socket for a server process that answers late, exits 0;
- ``chatty``: prints ``step N`` for a while, then only ``waiting...`` lines, forever (a hang
  that still logs: only --progress-regex can see it stop);
- ``usr1``: deadlocks on a lock it holds; SIGUSR1 makes it exit 5;
- ``echo``: copies stdin to stdout in upper case, exits 3;
- ``family``: starts a child that stays in the job's process group with an empty environment
  (no owner token) and one that leaves every group (its own session, the token kept), prints
  ``pids A B``, then waits forever.
"""

# ruff: noqa: T201  (printing is what these jobs do)

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import socket
import sys
import threading
import time


def _late_server(sock: socket.socket, delay: float) -> None:
    conn, _ = sock.accept()
    time.sleep(delay)  # the slow peer itself
    conn.sendall(b"answer")
    conn.close()


def _square(x: int) -> int:
    return x * x


def _compute(seconds: float) -> int:
    end, n = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        n = (n * 1103515245 + 12345) % 2**31
    return n


def _matmul(seconds: float) -> float:
    import numpy as np

    a, total, end = np.random.default_rng(0).random((200, 200)), 0.0, time.monotonic() + seconds
    while time.monotonic() < end:
        total += float((a @ a).sum())
    return total


def main(mode: str, seconds: float) -> int:
    if mode == "sleep":
        time.sleep(seconds)
    elif mode == "compute":
        end, n = time.monotonic() + seconds, 0
        while time.monotonic() < end:
            n = (n * 1103515245 + 12345) % 2**31
    elif mode == "pool":
        with mp.get_context("fork").Pool(2) as pool:
            time.sleep(seconds)  # the workers wait for tasks meanwhile
            assert pool.map(_square, range(8)) == [x * x for x in range(8)]
    elif mode == "pool-compute":
        with mp.Pool(2) as pool:
            print("ready", flush=True)
            assert len(pool.map(_compute, [seconds, seconds])) == 2
    elif mode == "executor-numpy":
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(2, mp_context=mp.get_context("spawn")) as ex:
            print("ready", flush=True)
            assert len(list(ex.map(_matmul, [seconds, seconds]))) == 2
    elif mode == "feeder":
        import subprocess

        cat = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)

        def feed() -> None:
            time.sleep(seconds)  # the late input itself
            assert cat.stdin is not None
            cat.stdin.write(b"input\n")
            cat.stdin.close()

        threading.Thread(target=feed).start()
        print("ready", flush=True)
        assert cat.wait() == 0
    elif mode == "peer":
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        child = mp.get_context("fork").Process(target=_late_server, args=(server, seconds))
        child.start()
        with socket.create_connection(server.getsockname()) as c:
            assert c.recv(16) == b"answer"
        child.join(30)
    elif mode == "chatty":
        for i in range(int(seconds * 10)):
            print(f"step {i}", flush=True)
            time.sleep(0.1)
        while True:
            print("waiting...", flush=True)
            time.sleep(0.1)
    elif mode == "usr1":
        signal.signal(signal.SIGUSR1, lambda *_: os._exit(5))
        lock = threading.Lock()
        lock.acquire()
        print("ready", flush=True)
        lock.acquire()  # never returns: a deadlock a signal handler can end
    elif mode == "family":
        import subprocess

        kept = subprocess.Popen(["/bin/sleep", "600"], env={})
        left = subprocess.Popen(["/bin/sleep", "600"], start_new_session=True)
        print(f"pids {kept.pid} {left.pid}", flush=True)
        threading.Event().wait()
    elif mode == "echo":
        print(sys.stdin.read().upper(), end="", flush=True)
        return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 6.0))
