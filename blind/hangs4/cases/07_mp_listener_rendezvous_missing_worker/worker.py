# A training worker: connects to the rendezvous server, announces itself, waits for the start message
# (the final world size), then "trains" and reports.
import sys
import time
from multiprocessing.connection import Client

rank = int(sys.argv[2])
with Client(("127.0.0.1", int(sys.argv[1])), authkey=b"rdzv") as conn:
    conn.send(("hello", rank))
    world = conn.recv()                     # waits for the server's start message
    time.sleep(0.1)
    conn.send(("done", rank, world))
