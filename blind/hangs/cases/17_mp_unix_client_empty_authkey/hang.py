# bpo-43952 (python/cpython#88118, "Multiprocessing UNIX socket connection: client freeze if
# authkey is an empty byte string"): the Listener skips the challenge for authkey=b'' (falsy),
# the Client with authkey=b'' (not None) waits for a challenge; the server waits for the client's
# first message. Two processes, each in recv() on the two ends of one Unix socket.
# Python 3.11.7 (affected; fixed by python/cpython#25845 in 3.13).
import os, sys, subprocess, tempfile, time
from multiprocessing.connection import Client

addr = os.path.join(tempfile.mkdtemp(), "svc.sock")
SERVER = ("import sys; from multiprocessing.connection import Listener\n"
          "with Listener(sys.argv[1], 'AF_UNIX', authkey=b'') as l:\n"
          "    print('listening', flush=True)\n"
          "    c = l.accept()\n"
          "    msg = c.recv(); c.send(('ok', msg))\n")
srv = subprocess.Popen([sys.executable, "-c", SERVER, addr], stdout=subprocess.PIPE)
assert srv.stdout.readline().strip() == b"listening"
print("ready", flush=True)
with Client(addr, "AF_UNIX", authkey=b"") as c:
    c.send("job")
    print(c.recv())
srv.wait()
