# Look-alike: the server runs while the main thread waits on a threading.Event that a timer sets after
# 16 s; then the server is stopped and the program ends normally.
import threading
from concurrent import futures
import grpc

server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
server.add_insecure_port("127.0.0.1:0")
server.start()
stop = threading.Event()
threading.Timer(16, stop.set).start()
print("ready", flush=True)
stop.wait()
server.stop(None).wait()
print("done")
