# zeromq/pyzmq#1757: `with zmq.Context() as ctx:` hangs on leaving the block when a socket is still
# open: Context.__exit__ calls term(), which waits until every socket is closed; the open socket
# belongs to this very thread. pyzmq 23.2.0.
import zmq

try:
    with zmq.Context() as ctx:
        s = ctx.socket(zmq.REQ)
        print("ready", flush=True)
        raise ValueError("bad config")
except ValueError as e:
    print("caught", e)
