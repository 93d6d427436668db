"""Stand-in for a private git host: every request needs HTTP Basic auth (401); with `slow` it answers 404 after
16 s instead (an anonymous, slow host)."""
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SLOW = float(sys.argv[1])


class H(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if SLOW:
            time.sleep(SLOW)
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="models"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *a) -> None:
        pass


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
