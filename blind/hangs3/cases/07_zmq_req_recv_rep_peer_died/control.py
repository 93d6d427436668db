# Control: the fix from the thread / zguide (Lazy Pirate): poll with a timeout, and give up (close
# with linger 0) when no reply comes.
import os, subprocess, sys
import zmq

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "crash"], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
ctx = zmq.Context()
req = ctx.socket(zmq.REQ)
req.connect(f"tcp://127.0.0.1:{port}")
req.send(b"hello")
srv.wait()
print("server exited", srv.returncode, flush=True)
print("ready", flush=True)
if req.poll(2500, zmq.POLLIN):
    print(req.recv())
else:
    print("no reply: server presumed dead, giving up")
req.close(linger=0)
ctx.term()
