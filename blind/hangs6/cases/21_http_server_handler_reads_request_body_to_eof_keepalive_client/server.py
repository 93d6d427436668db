# The bot's built-in HTTP server (Limnoria's httpserver before PR #1154): a POST handler reads the request
# body with rfile.read(), i.e. until EOF, instead of Content-Length bytes. MODE "fixed" reads Content-Length.
import http.server
import sys

mode = sys.argv[1]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        if mode == "fixed":
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        else:
            body = self.rfile.read()                       # reads until the client closes its side
        reply = b"stored %d bytes\n" % len(body)
        self.send_response(200)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *a):
        pass


srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
