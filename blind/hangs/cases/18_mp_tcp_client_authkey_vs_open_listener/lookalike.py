# Look-alike: same Listener (loopback TCP, another process) and Client; the server is slow (16 s)
# to send its authentication challenge, the client waits for it, then both talk.
import socket, sys, subprocess
from multiprocessing.connection import Client

with socket.socket() as s:
    s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
SERVER = ("import sys, time; from multiprocessing.connection import Listener\n"
          "with Listener(('127.0.0.1', int(sys.argv[1])), authkey=b'secret') as l:\n"
          "    print('listening', flush=True)\n"
          "    time.sleep(16)\n"
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
