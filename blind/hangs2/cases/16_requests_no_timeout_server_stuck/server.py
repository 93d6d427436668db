# A local HTTP backend whose handler waits for an upstream result that never comes (an Event nobody
# sets); with a delay argument, the upstream answers after that many seconds.
import http.server, sys, threading

delay = float(sys.argv[1]) if len(sys.argv) > 1 else None
upstream = threading.Event()
if delay is not None:
    threading.Timer(delay, upstream.set).start()

class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        upstream.wait()
        body = b"ok"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass

srv = http.server.HTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
srv.handle_request()
