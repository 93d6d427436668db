# A local HTTP server in its own process: POST reads exactly Content-Length bytes, then answers.
import http.server, sys, time

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        n = int(self.headers["Content-Length"])
        body = self.rfile.read(n)               # waits for all n bytes
        if self.path == "/slow":
            time.sleep(16)
        out = b"got %d bytes" % len(body)
        self.send_response(200); self.send_header("Content-Length", str(len(out))); self.end_headers()
        self.wfile.write(out)
    def log_message(self, *a):
        pass

srv = http.server.HTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
