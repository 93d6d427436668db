# Look-alike: the same shutdown while the idle keep-alive client closes its connection 16 s later
# (a timer thread).
import http.client, http.server, threading

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        body = b"ok"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass

srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
t = threading.Thread(target=srv.serve_forever)
t.start()
conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1])
conn.request("GET", "/health")
print(conn.getresponse().read())
threading.Timer(16, conn.close).start()
print("ready", flush=True)
srv.shutdown()
t.join()
print("done")
