"""Shape: an http.server ThreadingHTTPServer in serve_forever(), waiting for requests that do not
come (a model or metrics endpoint between requests); a timer thread shuts it down at the end."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import _field


class Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok\n")


def main() -> None:
    with ThreadingHTTPServer(("127.0.0.1", 0), Hello) as server:
        _field.ready()
        timer = threading.Timer(_field.left(), server.shutdown)
        timer.start()
        server.serve_forever()  # its selector wakes every 0.5 s to check for shutdown
        timer.join()


if __name__ == "__main__":
    main()
