# The dashboard's HTTPS server (child process): http.server's ThreadingHTTPServer with TLS. argv[1]:
# "wrapped-listener" (Werkzeug's way: the LISTENING socket is wrapped, so accept() runs the handshake
# inline on the single serve_forever thread) or "lazy-handshake" (the fix: accept the raw socket, wrap
# it with do_handshake_on_connect=False; the handshake runs in the request thread, under a timeout).
import http.server
import ssl
import sys

ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain("cert.pem", "key.pem")


class Handler(http.server.BaseHTTPRequestHandler):
    timeout = 10

    def do_GET(self):
        body = b"dashboard ok\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class LazyTLSServer(http.server.ThreadingHTTPServer):
    def get_request(self):
        sock, addr = self.socket.accept()
        return ctx.wrap_socket(sock, server_side=True, do_handshake_on_connect=False), addr

    def handle_error(self, request, client_address):
        pass


if sys.argv[1] == "wrapped-listener":
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
else:
    srv = LazyTLSServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
