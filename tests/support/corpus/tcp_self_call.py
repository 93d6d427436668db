"""Shape: a single-threaded server calls itself: it connects to its own listening socket, sends a
request and reads the answer, but the only thread that could accept the connection is the one
reading (a WSGI app requesting a URL of its own server).

The client side's other end waits, not accepted yet, in the accept queue of a listener only this
process holds: a self-wait through TCP. Prints `ready` once it waits for the answer.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import socket
import sys
import threading
import time


def _ready_once_in(syscall: str) -> None:
    """Print `ready` from a helper thread once the main thread sleeps in `syscall` (/proc,
    bounded): the look then finds the wait in place."""
    main_tid = threading.get_native_id()

    def watch() -> None:
        deadline = time.monotonic() + 10.0
        while True:
            try:
                with open(f"/proc/self/task/{main_tid}/syscall") as fh:
                    if fh.read().split()[0] == syscall:
                        break
            except (OSError, IndexError):
                pass
            if time.monotonic() > deadline:
                print("main never waited", file=sys.stderr, flush=True)
                os._exit(3)
            time.sleep(0.02)
        print("ready", flush=True)

    threading.Thread(target=watch, daemon=True).start()


def main() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    client = socket.create_connection(server.getsockname())
    client.sendall(b"GET / HTTP/1.0\r\n\r\n")
    _ready_once_in("45")  # recvfrom/read on x86_64
    client.recv(1)  # only this thread could accept, and it reads


if __name__ == "__main__":
    main()
