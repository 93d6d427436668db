# A small HTTP file server (the object store): serves /shards/N.csv; with a delay argument each response
# waits that long first.
import http.server
import sys
import time

delay = float(sys.argv[2])


class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/shards/") and delay and "1.csv" in self.path:
            time.sleep(delay)
        body = b"a,b\n1,2\n" * 100
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "800")
        self.end_headers()

    def log_message(self, *a):
        pass


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
