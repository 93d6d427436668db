# Look-alike: the same wrapped listening socket (CPython 3.11.7); the probe closes its connection after
# 16 s, the inline handshake fails, the accept loop goes on and serves the dashboard's request.
from app import run

run("wrapped-listener", 16)
