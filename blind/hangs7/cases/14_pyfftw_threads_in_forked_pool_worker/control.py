# Control: the workaround of the issue: the workers use threads=1 (no FFTW thread pool in the children).
# pyfftw 0.13.1.
from common import run

if __name__ == "__main__":
    run(worker_threads=1, extra=0.0)
