# Control: the same program on pyzmq 26.2.0 (Context.__exit__ now calls destroy(), closing left sockets).
import zmq

try:
    with zmq.Context() as ctx:
        s = ctx.socket(zmq.REQ)
        print("ready", flush=True)
        raise ValueError("bad config")
except ValueError as e:
    print("caught", e)
