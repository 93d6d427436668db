# Control: the client closes its keep-alive connection before the server is shut down.
import http.client, http.server, threading

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"           # keep-alive
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
print("ready", flush=True)
conn.close()                                # the idle connection goes first
srv.shutdown()
t.join()
conn.close()
print("done")
