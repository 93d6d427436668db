# BitBotFactory/MikaLendingBot#274 (socketserver docs: shutdown() "must be called while
# serve_forever() is running in another thread, or it will deadlock"): a /quit request handler
# calls server.shutdown() from the thread that runs serve_forever().
import http.server, threading, urllib.request

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"bye")
        self.wfile.flush()
        print("ready", flush=True)
        self.server.shutdown()  # waits for serve_forever() to return: it is this thread
    def log_message(self, *a):
        pass

srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
port = srv.server_address[1]
threading.Thread(target=lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/quit").read(), daemon=True).start()
srv.serve_forever()
srv.server_close()
print("done")
