# Look-alike: the /quit handler (in the serve_forever thread) waits 16 s on an event a timer sets,
# then hands the shutdown to another thread.
import http.server, threading, urllib.request

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"bye")
        self.wfile.flush()
        flushed = threading.Event()
        threading.Timer(16, flushed.set).start()
        print("ready", flush=True)
        flushed.wait()
        threading.Thread(target=self.server.shutdown).start()
    def log_message(self, *a):
        pass

srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
port = srv.server_address[1]
threading.Thread(target=lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/quit").read(), daemon=True).start()
srv.serve_forever()
srv.server_close()
print("done")
