# Control: the kodiak#861 fix: BLPOP with a timeout (2 s) and a check of the producer in between; the
# collector gives up when the producer has exited. redis 5.0.1, CPython 3.11.7.
from common import run

run("crash", timeout=2)
