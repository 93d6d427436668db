"""Shape: main thread blocked in socket.accept() on 127.0.0.1, port 0 (an idle server).

Why it matters: a server waiting for a client is blocked forever by design; it must be
read as "waiting on I/O (socket)", not as a deadlock. On CPython 3.11 the blocking
socket accept goes through accept4(2) on an fd linking to socket:[inode].
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import socket


def main() -> None:
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    print(f"listening fd={srv.fileno()} port={srv.getsockname()[1]}", flush=True)
    print("ready", flush=True)
    while True:
        conn, _ = srv.accept()
        conn.close()


if __name__ == "__main__":
    main()
