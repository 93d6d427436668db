# Look-alike: same PUSH socket with a queued message and LINGER -1, Context.term() waiting; the
# peer (a PULL socket in a child process) binds the port 16 s later and takes the message.
import socket, subprocess, sys, zmq

with socket.socket() as s:
    s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
PEER = ("import time, zmq, sys; time.sleep(16); c = zmq.Context(); p = c.socket(zmq.PULL); "
        f"p.bind('tcp://127.0.0.1:{port}'); print('peer got', p.recv(), flush=True); p.close(); c.term()")
peer = subprocess.Popen([sys.executable, "-c", PEER])
ctx = zmq.Context()
push = ctx.socket(zmq.PUSH)
push.connect(f"tcp://127.0.0.1:{port}")
push.send(b"job result")
push.close()
print("ready", flush=True)
ctx.term()
peer.wait(timeout=50)
print("done")
