# Control: what bpo-32244 asks for, done by hand: the server waits for connections with a timeout
# (multiprocessing.connection.wait on the listening socket, 2 s); when the remote worker has not come,
# it starts the job with the workers that did connect, and everything ends. CPython 3.11.7.
import subprocess
import sys
from multiprocessing.connection import Listener, wait

WORLD_SIZE = 3
LOCAL_WORKERS = 2

with Listener(("127.0.0.1", 0), authkey=b"rdzv") as listener:
    port = listener.address[1]
    workers = [subprocess.Popen([sys.executable, "worker.py", str(port), str(r)]) for r in range(LOCAL_WORKERS)]
    conns = []
    for i in range(WORLD_SIZE):
        if i == LOCAL_WORKERS:
            print("ready", flush=True)
        if not wait([listener._listener._socket], timeout=2.0):
            print("rendezvous timed out with", len(conns), "workers")
            break
        conn = listener.accept()
        conns.append((conn, conn.recv()))
    for conn, _ in conns:
        conn.send(len(conns))
    print("results", [conn.recv() for conn, _ in conns])
    for w in workers:
        w.wait()
