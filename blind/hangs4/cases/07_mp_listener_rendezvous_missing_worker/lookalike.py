# Look-alike: the same rendezvous (world size 3, accept() without a timeout, two local workers waiting
# for the start message); the third worker is started 16 s later by a delayed launcher (a child that
# sleeps, then runs it), so accept() returns and the job runs to the end. CPython 3.11.7.
import subprocess
import sys
from multiprocessing.connection import Listener

WORLD_SIZE = 3
LOCAL_WORKERS = 2

with Listener(("127.0.0.1", 0), authkey=b"rdzv") as listener:
    port = listener.address[1]
    workers = [subprocess.Popen([sys.executable, "worker.py", str(port), str(r)]) for r in range(LOCAL_WORKERS)]
    late = subprocess.Popen(["sh", "-c", f"sleep 16; exec {sys.executable} worker.py {port} 2"])
    conns = []
    for i in range(WORLD_SIZE):
        if i == LOCAL_WORKERS:
            print("ready", flush=True)
        conn = listener.accept()
        conns.append((conn, conn.recv()))
    for conn, _ in conns:
        conn.send(WORLD_SIZE)
    print("results", [conn.recv() for conn, _ in conns])
    for w in workers + [late]:
        w.wait()
