# The viewer (a browser stand-in): loads the page over one HTTP/1.1 keep-alive connection, then keeps
# that connection open, idle, until the parent tells it to quit on its stdin (or, with a second
# argument, closes it by itself after that many seconds).
import http.client
import sys
import time

conn = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
conn.request("GET", "/")
body = conn.getresponse().read()
print("viewer loaded", len(body), flush=True)
if len(sys.argv) > 2:
    time.sleep(float(sys.argv[2]))
    conn.close()
sys.stdin.readline()
conn.close()
