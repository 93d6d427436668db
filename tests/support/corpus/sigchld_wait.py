"""Shape: a process waits for its child's exit through a SIGCHLD handler, in one thread.

    sigchld_wait.py event|loop|reaped

``event``: the handler sets a `threading.Event` the main thread waits on, untimed; ``loop``: an
asyncio loop awaits a future that `add_signal_handler(SIGCHLD)` resolves (the loop has no timer
and watches only its own wake-up socket). Both healthy: the child (a 60 s sleep) lives, and its
exit sends the SIGCHLD that ends the wait. ``reaped``: the `event` shape whose child was reaped
before the wait (Popen.wait()): no child is left to send a SIGCHLD, and nothing else sets the
Event: a hang. Prints `ready` once the main thread waits (a helper thread reads /proc).
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading

import handshake

EPOLL_WAIT = "232"
CHILD = [sys.executable, "-c", "import time; time.sleep(60)"]


def event(reap_first: bool) -> None:
    done = threading.Event()
    if reap_first:  # the step ran and was reaped (its SIGCHLD came and went) before the handler
        subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=60)
    signal.signal(signal.SIGCHLD, lambda *_: done.set())
    child = None if reap_first else subprocess.Popen(CHILD)
    handshake.ready_once_in(handshake.FUTEX)
    done.wait()
    if child is not None:
        child.wait()


async def loop() -> None:
    running = asyncio.get_running_loop()
    ended: asyncio.Future[None] = running.create_future()
    child = subprocess.Popen(CHILD)

    def exited() -> None:
        if not ended.done():
            ended.set_result(None)

    running.add_signal_handler(signal.SIGCHLD, exited)
    handshake.ready_once_in(EPOLL_WAIT)
    await ended
    child.wait()


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "loop":
        asyncio.run(loop())
    else:
        event(reap_first=mode == "reaped")
