# A tiny local HTTP server in its own process: /redir answers 302 to another host name
# (localhost instead of 127.0.0.1) for /data; /slow streams a body over 16 s.
import http.server, sys, time

class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        port = self.server.server_address[1]
        if self.path == "/redir":
            self.send_response(302)
            self.send_header("Location", f"http://localhost:{port}/data")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path == "/slow":
            self.send_response(200); self.send_header("Content-Length", "8"); self.end_headers()
            for _ in range(8):
                self.wfile.write(b"x"); self.wfile.flush(); time.sleep(2.0)
        else:
            body = b"payload"
            self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
            self.wfile.write(body)
    def log_message(self, *a):
        pass

srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
