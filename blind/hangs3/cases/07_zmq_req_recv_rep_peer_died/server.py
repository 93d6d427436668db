# A REP server (child process). Mode "crash": it receives the request and exits without replying
# (as a crashing server). Mode "slow": it replies after 16 s.
import os, sys, time
import zmq

mode = sys.argv[1]
ctx = zmq.Context()
rep = ctx.socket(zmq.REP)
port = rep.bind_to_random_port("tcp://127.0.0.1")
print(port, flush=True)
msg = rep.recv()
if mode == "crash":
    os._exit(3)
time.sleep(16)
rep.send(b"reply to " + msg)
rep.close(linger=1000)
ctx.term()
