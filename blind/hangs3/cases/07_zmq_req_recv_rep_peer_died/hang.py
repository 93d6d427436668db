# zeromq/libzmq#1227 (zmq_recv on REQ hangs indefinitely when the REP side dies): the REQ client sent
# its request; the REP server received it and died before replying; recv() on the REQ socket waits
# forever (the I/O thread only retries the connection). pyzmq 26.2.0 (bundled libzmq) on CPython 3.11.7.
import os, subprocess, sys
import zmq

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "crash"], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
ctx = zmq.Context()
req = ctx.socket(zmq.REQ)
req.connect(f"tcp://127.0.0.1:{port}")
req.send(b"hello")
srv.wait()                                   # the server has died without replying
print("server exited", srv.returncode, flush=True)
print("ready", flush=True)
print(req.recv())                            # no timeout: waits for a reply that cannot come
