# Look-alike: same client and server on loopback TCP; the request is well formed and the server
# takes 16 s to answer; the client waits in recv() meanwhile.
import http.client, os, subprocess, sys

srv = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "server.py")], stdout=subprocess.PIPE)
port = int(srv.stdout.readline())
body = b'{"message":"hello server"}'
conn = http.client.HTTPConnection("127.0.0.1", port)
conn.putrequest("POST", "/slow")
conn.putheader("Content-Type", "application/json")
conn.putheader("Content-Length", str(len(body)))
conn.endheaders(body)
print("ready", flush=True)
r = conn.getresponse()
print(r.status, r.read())
srv.kill(); srv.wait()
