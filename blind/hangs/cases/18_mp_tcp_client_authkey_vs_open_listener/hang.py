# python/cpython#123736 ("multiprocessing.connection.Client deadlocks when trying to connect to a
# listener without a password"): a Listener without authkey (another process, loopback TCP)
# accepts and waits for the first message; the Client with an authkey waits for the challenge.
import socket, sys, subprocess
from multiprocessing.connection import Client

with socket.socket() as s:
    s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
SERVER = ("import sys; from multiprocessing.connection import Listener\n"
          "with Listener(('127.0.0.1', int(sys.argv[1]))) as l:\n"
          "    print('listening', flush=True)\n"
          "    c = l.accept()\n"
          "    while True:\n"
          "        v = c.recv()\n"
          "        if not v: break\n")
srv = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], stdout=subprocess.PIPE)
assert srv.stdout.readline().strip() == b"listening"
print("ready", flush=True)
with Client(("127.0.0.1", port), authkey=b"secret") as c:
    c.send("hello"); c.send("")
srv.wait()
print("done")
