# Look-alike: the same BLPOP timeout=0 collector; the producer works 16 s and then pushes its results.
# redis 5.0.1, CPython 3.11.7.
from common import run

run("16")
