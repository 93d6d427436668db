# Control: the fix of MikaLendingBot#274: send the shutdown from a separate thread.
import http.server, threading, urllib.request

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"bye")
        self.wfile.flush()
        print("ready", flush=True)
        threading.Thread(target=self.server.shutdown).start()
    def log_message(self, *a):
        pass

srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
port = srv.server_address[1]
threading.Thread(target=lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/quit").read(), daemon=True).start()
srv.serve_forever()
srv.server_close()
print("done")
