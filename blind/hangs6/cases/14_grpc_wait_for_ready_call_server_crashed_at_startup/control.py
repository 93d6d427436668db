# Control: the fix of the example in grpc/grpc#32183: a client-side deadline (3 s); the call fails with
# DEADLINE_EXCEEDED and the client reports it. grpcio 1.60.0 on CPython 3.11.7.
from common import run

run("broken", timeout=3.0)
