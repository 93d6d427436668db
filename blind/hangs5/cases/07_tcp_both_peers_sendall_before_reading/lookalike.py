# Look-alike: the same client (sendall, then read) and server, but the request is 32 KB, which fits in
# the socket buffers; the server starts serving only after 16 s, then the exchange completes.
from client import run

run(32 * 1024, threaded=False, delay=16)
