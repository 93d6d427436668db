# A dashboard subscribed to the event stream: reads events until the stream ends (argv[2], if given:
# it closes the connection itself after that many seconds).
import http.client
import sys
import time

conn = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
conn.request("GET", "/events")
resp = conn.getresponse()
print("client connected", flush=True)
deadline = time.time() + float(sys.argv[2]) if len(sys.argv) > 2 else None
while True:
    line = resp.fp.readline()
    if not line:
        break
    if deadline and time.time() > deadline:
        print("client: leaving", flush=True)
        break
conn.close()
print("client: stream ended", flush=True)
