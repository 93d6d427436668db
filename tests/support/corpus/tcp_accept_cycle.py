"""Shape: a client keeps an idle keep-alive connection to a single-threaded server (a child
process) and opens a second one: the server reads the first, waiting for a request that never
comes, so it never accepts the second, on which the client waits for an answer.

A cycle of two processes through TCP: the client's request waits in the accept queue of a
listener only the server holds; the server reads a connection only the client holds. Prints
`ready` once the client waits; `look PID` names the client.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import socket
import subprocess
import sys

import handshake

SERVER = """
import socket, sys
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(8)
print(server.getsockname()[1], flush=True)
while True:
    conn, _ = server.accept()
    while conn.recv(4096):  # one connection at a time, until it closes
        conn.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 0\\r\\n\\r\\n")
"""


def main() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    port = int(server.stdout.readline())
    idle = socket.create_connection(("127.0.0.1", port))
    idle.sendall(b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
    idle.recv(4096)  # answered: the server now reads this connection for the next request
    second = socket.create_connection(("127.0.0.1", port))
    second.sendall(b"GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
    print(f"look {os.getpid()}", flush=True)
    handshake.ready_once_in(handshake.RECVFROM)
    second.recv(4096)


if __name__ == "__main__":
    main()
