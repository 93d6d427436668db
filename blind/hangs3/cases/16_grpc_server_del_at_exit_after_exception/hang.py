# grpc/grpc#17214 (python: helloworld server is stuck if Exception is raised): an exception ends the
# main program while a grpc server runs; at interpreter shutdown grpc._Server.__del__ sends a shutdown
# to the core server and waits on a threading.Event that only the server's daemon polling thread would
# set, and that thread can no longer run in a finalizing interpreter. grpcio 1.16.1 on CPython 3.7.16.
from concurrent import futures
import grpc

server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
server.add_insecure_port("127.0.0.1:0")
server.start()
print("ready", flush=True)
raise RuntimeError("something went wrong while serving")
