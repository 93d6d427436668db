# Control: the very same program on Python 3.13.0, whose Listener checks "authkey is not None"
# (python/cpython#25845, the fix of bpo-43952): both ends run the challenge and talk.
import os, sys, subprocess, tempfile, time
from multiprocessing.connection import Client
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
