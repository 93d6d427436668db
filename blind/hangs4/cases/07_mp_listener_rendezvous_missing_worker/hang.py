# python/cpython#76425 (bpo-32244, "multiprocessing.connection.Listener.accept() should accept a
# timeout"): accept() has no timeout, so a rendezvous server that waits for a worker that never connects
# waits forever. Here the job is configured for a world size of 3; the launcher starts the 2 local
# workers, the third is meant to be started by the user elsewhere (another terminal/host) and never is.
# The two local workers wait for the start message; the server waits in accept() on its listening port.
# CPython 3.11.7.
import subprocess
import sys
from multiprocessing.connection import Listener

WORLD_SIZE = 3
LOCAL_WORKERS = 2

with Listener(("127.0.0.1", 0), authkey=b"rdzv") as listener:
    port = listener.address[1]
    workers = [subprocess.Popen([sys.executable, "worker.py", str(port), str(r)]) for r in range(LOCAL_WORKERS)]
    conns = []
    for i in range(WORLD_SIZE):
        if i == LOCAL_WORKERS:
            print("ready", flush=True)       # both local workers are in; waiting for the remote one
        conn = listener.accept()
        conns.append((conn, conn.recv()))
    for conn, _ in conns:
        conn.send(WORLD_SIZE)
    print("results", [conn.recv() for conn, _ in conns])
    for w in workers:
        w.wait()
