# Look-alike: the REP server is alive and replies after 16 s; recv() returns.
import os, subprocess, sys
import zmq

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "slow"], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
ctx = zmq.Context()
req = ctx.socket(zmq.REQ)
req.connect(f"tcp://127.0.0.1:{port}")
req.send(b"hello")
print("ready", flush=True)
print(req.recv())
srv.wait()
req.close(linger=0)
ctx.term()
