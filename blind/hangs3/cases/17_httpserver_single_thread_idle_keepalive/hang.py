# python/cpython#75820 (bpo-31639: http.server and SimpleHTTPServer hang after a few requests): the
# single-threaded HTTPServer serves one connection at a time; a client (as a browser's pre-connect)
# opens a keep-alive connection it does not use yet, then sends its request on a second connection:
# the server waits for a request on the first connection, the client waits for the answer on the
# second. CPython 3.11.7 (http.server in a child process, http.client).
import http.client, os, socket, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "single"], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
preconnect = socket.create_connection(("127.0.0.1", port))     # idle keep-alive connection: first in the accept queue
conn = http.client.HTTPConnection("127.0.0.1", port)
conn.request("GET", "/index.html")
print("ready", flush=True)
resp = conn.getresponse()                                      # no timeout: waits forever
print(resp.status, resp.read())
preconnect.close()
srv.kill()
srv.wait()
