# redis/redis-py#1199 and chdsbd/kodiak#861 ("Add timeout to redis blocking pop to prevent hanging worker"):
# the collector waits for results with BLPOP timeout=0 (block forever) while the producer that would push
# them has crashed. The redis-server (a child of the collector) keeps the connection open; any client on
# this host could still push to the list. redis 5.0.1 (redis-py) with Debian's redis-server, CPython 3.11.7.
from common import run

run("crash")
