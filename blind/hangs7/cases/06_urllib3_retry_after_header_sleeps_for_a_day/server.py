"""Stand-in for a rate-limited API: the first request gets 503 with Retry-After, later ones 200."""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RETRY_AFTER = sys.argv[1]
hits = 0


class H(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        global hits
        hits += 1
        if hits == 1:
            self.send_response(503)
            self.send_header("Retry-After", RETRY_AFTER)
            body = b"busy\n"
        else:
            self.send_response(200)
            body = b'{"rows": 42}\n'
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a) -> None:
        pass


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
