# An http.server that serves HTTP/1.1 (keep-alive) on loopback, in a child process. Argument "single":
# HTTPServer (one connection at a time, as `python -m http.server` before 3.7); "threading":
# ThreadingHTTPServer (the fix of bpo-31639).
import http.server, sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = b"hello"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


cls = http.server.ThreadingHTTPServer if sys.argv[1] == "threading" else http.server.HTTPServer
srv = cls(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
