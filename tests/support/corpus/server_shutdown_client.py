"""Shape: a request handler calls its server's shutdown() (python/cpython's socketserver docs: it
"must be called while serve_forever() is running in another thread, or it will deadlock"): the
handler runs on the thread that runs serve_forever(), so shutdown() waits for its own caller to
return, while the client, a thread of the same process, reads the response the handler never
finishes (HTTP/1.0, no length: the body ends when the connection closes).

Two waits: the main thread's (a self-wait, through its own stack) and the client thread's read of
a connection whose other end only this process holds. The chain ends in the first: the read
waits on it. Prints `ready` once the main thread waits in futex() and the client in recvfrom().
"""

import http.server
import threading
import urllib.request
from typing import ClassVar

import handshake


def fetch(port: int, tid: list[int]) -> None:
    tid.append(threading.get_native_id())
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/quit", timeout=None) as response:
        response.read()


class Handler(http.server.BaseHTTPRequestHandler):
    client: ClassVar[list[int]] = []

    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"bye")
        self.wfile.flush()
        handshake.ready_once_in(handshake.FUTEX, also=((handshake.RECVFROM, self.client[0]),))
        self.server.shutdown()  # waits for serve_forever() to return: this thread runs it

    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=fetch, args=(server.server_address[1], Handler.client), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
