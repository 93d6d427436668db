# The feature service: a generic gRPC handler for /features.Store/Get. In the hang it fails at start-up
# (its config is missing) before binding; with a delay it loads for that many seconds first.
import sys
import time
from concurrent import futures

import grpc

port, mode = sys.argv[1], sys.argv[2]
if mode == "broken":
    raise SystemExit("feature-store: KeyError: 'FEATURE_DB_URL'")
time.sleep(float(mode))


def get(request: bytes, context) -> bytes:
    return b"features for " + request


handler = grpc.method_handlers_generic_handler(
    "features.Store", {"Get": grpc.unary_unary_rpc_method_handler(get)})
server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
server.add_generic_rpc_handlers((handler,))
server.add_insecure_port(f"127.0.0.1:{port}")
server.start()
server.wait_for_termination(timeout=60)
