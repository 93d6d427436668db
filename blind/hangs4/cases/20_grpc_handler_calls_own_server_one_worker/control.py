# Control: the server option added for grpc/grpc#7052, maximum_concurrent_rpcs=1: an RPC that cannot be
# served at once is rejected with RESOURCE_EXHAUSTED instead of queued, so the nested call fails fast,
# the handler answers with an error and the program ends. grpcio 1.62.2 on CPython 3.11.7.
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
server = grpc.server(futures.ThreadPoolExecutor(max_workers=1), maximum_concurrent_rpcs=1)
server.add_generic_rpc_handlers((handlers,))
port = server.add_insecure_port("127.0.0.1:0")
state["target"] = f"127.0.0.1:{port}"
server.start()
with grpc.insecure_channel(state["target"]) as channel:
    fut = channel.unary_unary("/Features/Batch").future(b"rows=0..1023")
    print("ready", flush=True)
    try:
        print(fut.result())
    except grpc.RpcError as exc:
        print("batch failed:", exc.code())
server.stop(None)
