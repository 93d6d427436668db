# Control: the fix of saltstack/salt#2979: set LINGER on the socket before closing it, so
# Context.term() drops what it cannot deliver.
import socket, zmq

with socket.socket() as s:
    s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
ctx = zmq.Context()
push = ctx.socket(zmq.PUSH)
push.connect(f"tcp://127.0.0.1:{port}")
push.send(b"job result")
push.setsockopt(zmq.LINGER, 0)
push.close()
print("ready", flush=True)
ctx.term()
print("done")
