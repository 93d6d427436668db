# Control: the same program on a release with the fix (grpcio 1.24.3): the process exits with the
# traceback.
from concurrent import futures
import grpc

server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
server.add_insecure_port("127.0.0.1:0")
server.start()
print("ready", flush=True)
raise RuntimeError("something went wrong while serving")
