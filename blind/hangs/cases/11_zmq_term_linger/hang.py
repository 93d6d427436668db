# zeromq/pyzmq#102 (saltstack/salt#2979, getlogbook/logbook#124): a socket with unsent messages
# and the default LINGER (-1) makes Context.term() block until they are delivered; the PUSH
# socket's peer (127.0.0.1:PORT) never comes up. pyzmq 26.2.0 (bundled libzmq).
import socket, zmq

with socket.socket() as s:       # a free local port nobody listens on
    s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
ctx = zmq.Context()
push = ctx.socket(zmq.PUSH)
push.connect(f"tcp://127.0.0.1:{port}")
push.send(b"job result")         # queued: no peer yet
push.close()
print("ready", flush=True)
ctx.term()                       # waits for the queued message to be sent
print("done")
