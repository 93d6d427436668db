# python/cpython#102156 (comment: "self.shutdown() does not return" while a client keeps its
# HTTP/1.1 connection open) and csernazs/pytest-httpserver#263 (stuck in server.stop()): a
# single-threaded HTTP/1.1 server's handler waits for the next request on a keep-alive connection;
# the idle client connection belongs to the thread that calls shutdown().
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
srv.shutdown()                              # waits for serve_forever, stuck in the handler
t.join()
conn.close()
print("done")
