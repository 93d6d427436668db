# bottlepy/bottle#757 (Strange behavior when calling into self): a handler of the single-threaded
# wsgiref server makes an HTTP request to its own server: the only thread that could answer it is
# the one waiting. CPython 3.11.7 (wsgiref.simple_server, urllib.request).
import threading, urllib.request
from wsgiref.simple_server import make_server, WSGIRequestHandler


class Quiet(WSGIRequestHandler):
    def log_message(self, *a):
        pass


def app(environ, start_response):
    if environ["PATH_INFO"] == "/a":
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"a"]
    print("ready", flush=True)
    urllib.request.urlopen(f"http://127.0.0.1:{port}/a").read()   # waits for itself
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"SUCCESS"]


srv = make_server("127.0.0.1", 0, app, handler_class=Quiet)
port = srv.server_port
threading.Thread(target=srv.serve_forever, name="wsgi-server", daemon=True).start()
print(urllib.request.urlopen(f"http://127.0.0.1:{port}/b").read())
srv.shutdown()
