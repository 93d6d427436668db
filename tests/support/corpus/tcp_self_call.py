"""Shape: a single-threaded server calls itself: it connects to its own listening socket, sends a
request and reads the answer, but the only thread that could accept the connection is the one
reading (a WSGI app requesting a URL of its own server).

The client side's other end waits, not accepted yet, in the accept queue of a listener only this
process holds: a self-wait through TCP. Prints `ready` once it waits for the answer.
"""

import socket

import handshake


def main() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    client = socket.create_connection(server.getsockname())
    client.sendall(b"GET / HTTP/1.0\r\n\r\n")
    handshake.ready_once_in(handshake.RECVFROM)
    client.recv(1)  # only this thread could accept, and it reads


if __name__ == "__main__":
    main()
