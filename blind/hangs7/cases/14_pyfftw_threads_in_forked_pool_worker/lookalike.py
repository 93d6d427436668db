# Look-alike: same parent and forked Pool; each worker task spends 8 s loading its block before a single-threaded
# transform (two rounds of two tasks: about 16 s). pyfftw 0.13.1.
from common import run

if __name__ == "__main__":
    run(worker_threads=1, extra=8.0)
