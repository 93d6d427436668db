"""Shape: a client waiting on a local server that answers, slowly (a peer that will answer).

Why it matters: the client's main thread waits in recv() on a TCP socket whose other end is held
by a live server process, sleeping before it replies (the request already read): `inspect`
follows the socket to its peer and must call the client idle, never "a peer that has gone".
Prints `ready` once the server has read the request and the client is in recvfrom().
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import os
import socket
import sys
import threading
import time

SERVER = """
import socket, sys, time
s = socket.create_server(("127.0.0.1", 0))
print(s.getsockname()[1], flush=True)
c, _ = s.accept()
c.recv(100)
print("read", flush=True)
time.sleep(3600)  # slow, but it will answer
c.sendall(b"answer")
"""


def main() -> None:
    import subprocess

    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    port = int(server.stdout.readline())
    client = socket.create_connection(("127.0.0.1", port))
    client.sendall(b"request")
    assert server.stdout.readline().strip() == "read"  # the handshake: the server has it
    threading.Thread(target=watch, args=(threading.get_native_id(),), daemon=True).start()
    client.recv(100)


def watch(main: int) -> None:
    """Print `ready` once the main thread waits in recvfrom()/read() (bounded /proc poll); then
    this thread ends."""
    run, deadline = 0, time.monotonic() + 60
    while run < 10 and time.monotonic() < deadline:
        with open(f"/proc/{os.getpid()}/task/{main}/syscall") as fh:
            run = run + 1 if fh.read().split()[0] in ("45", "0", "207", "63") else 0
        time.sleep(0.05)  # the polling interval of a bounded /proc poll
    print("ready" if run >= 10 else "never settled", flush=True)


if __name__ == "__main__":
    main()
