# Control: the fix of bpo-31639 (http.server uses ThreadingHTTPServer since 3.7): the idle connection
# no longer blocks the request on the second one.
import http.client, os, socket, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "threading"], stdout=subprocess.PIPE, text=True)
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
