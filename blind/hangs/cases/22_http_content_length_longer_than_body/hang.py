# Orange-OpenSource/hurl#4099 (and fastify/fastify#3245): a client sends a request whose
# Content-Length header is larger than the body it sends (a proxy that rewrote the body but kept
# the header); the server reads the declared length and waits for the rest, the client waits for
# the response. Two processes on one loopback TCP connection, each in recv().
import http.client, os, subprocess, sys

srv = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "server.py")], stdout=subprocess.PIPE)
port = int(srv.stdout.readline())
body = b'{"message":"hello server"}'
conn = http.client.HTTPConnection("127.0.0.1", port)
conn.putrequest("POST", "/hello")
conn.putheader("Content-Type", "application/json")
conn.putheader("Content-Length", str(len(body) + 100))   # stale header
conn.endheaders(body)
print("ready", flush=True)
r = conn.getresponse()
print(r.status, r.read())
srv.kill(); srv.wait()
