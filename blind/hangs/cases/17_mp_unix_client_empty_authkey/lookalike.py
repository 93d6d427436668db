# Look-alike: the same Unix-socket Listener/Client pair (no authkey on either end); the client
# waits in recv() for the answer while the server works on the job for 16 s.
import os, sys, subprocess, tempfile
from multiprocessing.connection import Client

addr = os.path.join(tempfile.mkdtemp(), "svc.sock")
SERVER = ("import sys, time; from multiprocessing.connection import Listener\n"
          "with Listener(sys.argv[1], 'AF_UNIX') as l:\n"
          "    print('listening', flush=True)\n"
          "    c = l.accept()\n"
          "    msg = c.recv(); time.sleep(16); c.send(('ok', msg))\n")
srv = subprocess.Popen([sys.executable, "-c", SERVER, addr], stdout=subprocess.PIPE)
assert srv.stdout.readline().strip() == b"listening"
print("ready", flush=True)
with Client(addr, "AF_UNIX") as c:
    c.send("job")
    print(c.recv())
srv.wait()
