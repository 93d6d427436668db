# Look-alike: the handler calls another (single-threaded) server of the same program, whose handler
# answers after 16 s; the request completes.
import threading, time, urllib.request
from wsgiref.simple_server import make_server, WSGIRequestHandler


class Quiet(WSGIRequestHandler):
    def log_message(self, *a):
        pass


def upstream(environ, start_response):
    time.sleep(16)
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"a"]


def app(environ, start_response):
    print("ready", flush=True)
    urllib.request.urlopen(f"http://127.0.0.1:{up_port}/a").read()
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"SUCCESS"]


up = make_server("127.0.0.1", 0, upstream, handler_class=Quiet)
up_port = up.server_port
threading.Thread(target=up.serve_forever, name="upstream-server", daemon=True).start()
srv = make_server("127.0.0.1", 0, app, handler_class=Quiet)
port = srv.server_port
threading.Thread(target=srv.serve_forever, name="wsgi-server", daemon=True).start()
print(urllib.request.urlopen(f"http://127.0.0.1:{port}/b").read())
srv.shutdown()
up.shutdown()
