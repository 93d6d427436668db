"""Shape: urllib requests to a local http server process (a child) that takes 5 s per reply: the
client's main thread waits in recv on a socket whose peer is alive and sleeping."""

from __future__ import annotations

import subprocess
import sys
import urllib.request

import _field

SERVER = """
import sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

class Slow(BaseHTTPRequestHandler):
    def do_GET(self):
        time.sleep(float(self.path.strip("/")))  # the slow backend
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"done")

    def log_message(self, *args):
        pass

with ThreadingHTTPServer(("127.0.0.1", 0), Slow) as server:
    print(server.server_address[1], flush=True)
    server.timeout = float(sys.argv[1])
    end = time.monotonic() + float(sys.argv[1])
    while time.monotonic() < end:
        server.handle_request()
"""


def main() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(_field.SECONDS + 30)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/0", timeout=30).read() == b"done"
        _field.ready()
        while not _field.over():
            url = f"http://127.0.0.1:{port}/{min(5.0, _field.left()):.2f}"
            assert urllib.request.urlopen(url, timeout=_field.MAX_S).read() == b"done"
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
