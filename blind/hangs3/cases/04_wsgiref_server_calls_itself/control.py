# Control: the fix given in the thread (the single-threaded server cannot call into itself): serve with
# a threading WSGI server, so /a is answered by another thread.
import socketserver, threading, urllib.request
from wsgiref.simple_server import make_server, WSGIRequestHandler, WSGIServer


class Quiet(WSGIRequestHandler):
    def log_message(self, *a):
        pass


class ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


def app(environ, start_response):
    if environ["PATH_INFO"] == "/a":
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"a"]
    print("ready", flush=True)
    urllib.request.urlopen(f"http://127.0.0.1:{port}/a").read()
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"SUCCESS"]


srv = make_server("127.0.0.1", 0, app, server_class=ThreadingWSGIServer, handler_class=Quiet)
port = srv.server_port
threading.Thread(target=srv.serve_forever, name="wsgi-server", daemon=True).start()
print(urllib.request.urlopen(f"http://127.0.0.1:{port}/b").read())
srv.shutdown()
