"""Shape: an asyncio event loop whose only task sleeps 10 minutes (healthy).

Why it matters: the look-alike of a lost wake-up in an event loop (catalogue
`asyncio-wait-for-swallows-cancel`, `asyncio-condition-notify-lost`): the loop's thread waits in
epoll_wait, with a timeout (the timer) and no descriptor but the loop's own self-pipe, exactly
as the wait_for bug's loop does; but the timer will fire and the program go on. A watcher
thread prints `ready` once the main thread waits in epoll_wait (bounded /proc polls), and ends.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import asyncio
import threading
import time

SLEEP_S = 600.0


def call(tid: int) -> str:
    try:
        with open(f"/proc/self/task/{tid}/syscall") as fh:
            return fh.read().split()[0]
    except (OSError, IndexError):
        return ""


def watch(main: int) -> None:
    run, deadline = 0, time.monotonic() + 60
    while run < 10 and time.monotonic() < deadline:
        run = run + 1 if call(main) in ("232", "281", "22") else 0
        time.sleep(0.05)  # the polling interval of a bounded /proc poll
    print("ready" if run >= 10 else "never settled", flush=True)


async def main() -> None:
    await asyncio.sleep(SLEEP_S)  # a periodic job's pause


if __name__ == "__main__":
    threading.Thread(target=watch, args=(threading.get_native_id(),), daemon=True).start()
    asyncio.run(main())
