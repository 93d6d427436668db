"""Shape: an asyncio client awaiting the answer of a live, slow server (healthy).

Why it matters: the look-alike of a lost wake-up in an event loop: the loop's thread waits in
epoll_wait with no timeout, but its epoll set holds a TCP socket whose other end a live process
holds (the server read the request and sleeps before it answers). `inspect` must call it idle.
Prints `ready` once the server has read the request and the loop waits in epoll_wait (a
watcher thread's bounded /proc poll; the thread then ends).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time

SERVER = """
import socket, time
s = socket.create_server(("127.0.0.1", 0))
print(s.getsockname()[1], flush=True)
c, _ = s.accept()
c.recv(100)
print("read", flush=True)
time.sleep(3600)  # slow, but it will answer
c.sendall(b"answer")
"""


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


async def main(server: subprocess.Popen[str]) -> None:
    assert server.stdout is not None
    port = int(server.stdout.readline())
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"request")
    await writer.drain()
    assert server.stdout.readline().strip() == "read"  # the handshake: the server has it
    threading.Thread(target=watch, args=(threading.get_native_id(),), daemon=True).start()
    await reader.read(100)


if __name__ == "__main__":
    with subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True) as srv:
        asyncio.run(main(srv))
