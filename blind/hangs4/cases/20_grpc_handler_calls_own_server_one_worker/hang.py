# grpc/grpc#7052 ("Python server send RESOURCE_EXHAUSTED when there are no available thread pools"; "this
# is a bug ... it can lead to deadlock if a service implementation is particularly perverse", and #8616
# "bounded server thread pools considered harmful"): a gRPC Python server queues RPCs for its
# ThreadPoolExecutor; a handler that calls another method of the same server waits for an RPC queued
# behind itself when all workers are busy. Here a feature service (1 worker) answers /Features/Batch by
# calling its own /Features/Stats. grpcio 1.62.2 on CPython 3.11.7.
from concurrent import futures

import grpc

state = {}


def stats(request, context):
    return b"mean=0.5"


def batch(request, context):
    with grpc.insecure_channel(state["target"]) as channel:
        call = channel.unary_unary("/Features/Stats")
        summary = call(request)                   # queued behind this handler: the only worker is busy
    return b"batch:" + summary


handlers = grpc.method_handlers_generic_handler("Features", {
    "Batch": grpc.unary_unary_rpc_method_handler(batch),
    "Stats": grpc.unary_unary_rpc_method_handler(stats),
})
server = grpc.server(futures.ThreadPoolExecutor(max_workers=1))
server.add_generic_rpc_handlers((handlers,))
port = server.add_insecure_port("127.0.0.1:0")
state["target"] = f"127.0.0.1:{port}"
server.start()
with grpc.insecure_channel(state["target"]) as channel:
    fut = channel.unary_unary("/Features/Batch").future(b"rows=0..1023")
    print("ready", flush=True)
    print(fut.result())
server.stop(None)
