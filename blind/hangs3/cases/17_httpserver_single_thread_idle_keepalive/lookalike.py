# Look-alike: the same single-threaded server and the same two connections, but the first connection
# is used: its request is sent after 16 s (a slow client thread); the server answers it, then the
# second request.
import http.client, os, socket, subprocess, sys, threading, time

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "single"], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
preconnect = socket.create_connection(("127.0.0.1", port))


def slow_first_request():
    time.sleep(16)
    preconnect.sendall(b"GET /first HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    preconnect.recv(65536)


t = threading.Thread(target=slow_first_request, name="slow-client")
t.start()
conn = http.client.HTTPConnection("127.0.0.1", port)
conn.request("GET", "/index.html")
print("ready", flush=True)
resp = conn.getresponse()
print(resp.status, resp.read())
t.join()
preconnect.close()
srv.kill()
srv.wait()
