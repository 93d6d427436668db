# Look-alike (pyzmq 23.2.0): leaving the context block while a worker thread still owns a socket,
# works 16 s and then closes it.
import threading, time
import zmq

def worker(ctx):
    s = ctx.socket(zmq.PULL)
    time.sleep(16)
    s.close()

with zmq.Context() as ctx:
    t = threading.Thread(target=worker, args=(ctx,))
    t.start()
    time.sleep(0.2)
    print("ready", flush=True)
t.join()
print("done")
