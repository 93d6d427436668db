# grpc/grpc#31483 (and the example added by grpc/grpc#32183: "if client set wait_for_ready but server never
# actually starts, client will wait indefinitely"): a unary call with wait_for_ready=True and no deadline to
# a feature service that failed at start-up; the channel keeps reconnecting (with backoff) to a port nobody
# listens on, and the call waits - any process on this host could still start a server on that port.
# grpcio 1.60.0 on CPython 3.11.7.
from common import run

run("broken")
