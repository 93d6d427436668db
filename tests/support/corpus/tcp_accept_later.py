"""Look-alike of tcp_self_call: the same request to its own listener, but another thread of the
process accepts it after a while (it sleeps first, as a server busy elsewhere would) and answers:
healthy, it ends. Prints `ready` once the request is sent; the answer comes after 60 s (the test
kills it long before)."""

# ruff: noqa: T201  (printing `ready` is the protocol)

import socket
import threading
import time


def main() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)

    def serve() -> None:
        time.sleep(60)  # busy elsewhere (the behaviour under test: a late accept)
        conn, _ = server.accept()
        conn.recv(64)
        conn.sendall(b"HTTP/1.0 200 OK\r\n\r\n")
        conn.close()

    threading.Thread(target=serve, daemon=True).start()
    client = socket.create_connection(server.getsockname())
    client.sendall(b"GET / HTTP/1.0\r\n\r\n")
    print("ready", flush=True)
    client.recv(1)


if __name__ == "__main__":
    main()
