# Look-alike: the same service and nested call (grpcio 1.62.2, CPython 3.11.7) with 2 workers: the nested
# /Features/Stats call is served by the second worker and takes 16 s, then the batch answers.
from concurrent import futures

import time

import grpc

state = {}


def stats(request, context):
    time.sleep(16)                                # a slow statistics query
    return b"mean=0.5"


def batch(request, context):
    with grpc.insecure_channel(state["target"]) as channel:
        call = channel.unary_unary("/Features/Stats")
        summary = call(request)                   # served by the second worker, answers after 16 s
    return b"batch:" + summary


handlers = grpc.method_handlers_generic_handler("Features", {
    "Batch": grpc.unary_unary_rpc_method_handler(batch),
    "Stats": grpc.unary_unary_rpc_method_handler(stats),
})
server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
server.add_generic_rpc_handlers((handlers,))
port = server.add_insecure_port("127.0.0.1:0")
state["target"] = f"127.0.0.1:{port}"
server.start()
with grpc.insecure_channel(state["target"]) as channel:
    fut = channel.unary_unary("/Features/Batch").future(b"rows=0..1023")
    print("ready", flush=True)
    print(fut.result())
server.stop(None)
