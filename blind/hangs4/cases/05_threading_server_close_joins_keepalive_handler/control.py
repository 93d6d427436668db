# Control: netron's fix for lutzroeder/netron#1082: the server sets block_on_close = False, so
# server_close() does not join the handler thread still waiting on the viewer's keep-alive connection;
# stop() returns, the viewer is told to quit, and the program ends. CPython 3.11.7.
import http.server
import socketserver
import subprocess
import sys
import threading


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = b"<html>model graph</html>"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class ThreadedHTTPServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    pass


class ServerThread(threading.Thread):
    def __init__(self):
        super().__init__()
        self.server = ThreadedHTTPServer(("127.0.0.1", 0), Handler)
        self.server.timeout = 0.25
        self.server.block_on_close = False
        self.stop_event = threading.Event()
        self.terminate_event = threading.Event()

    def run(self):
        while not self.stop_event.is_set():
            self.server.handle_request()
        self.terminate_event.set()

    def stop(self):
        self.stop_event.set()
        self.server.server_close()          # joins the handler threads (block_on_close)
        self.terminate_event.wait(1000)


server = ServerThread()
server.start()
port = server.server.server_address[1]
viewer = subprocess.Popen([sys.executable, "client.py", str(port)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True)
print(viewer.stdout.readline().strip())
print("ready", flush=True)
server.stop()
viewer.stdin.write("quit\n")
viewer.stdin.close()
viewer.wait()
print("stopped")
