# pyFFTW/pyFFTW#135 ("Process hangs when pyfftw used within a multiprocessing process"): the parent runs a threaded
# FFTW transform (threads=2), which starts FFTW's worker threads; forked Pool workers then run threaded transforms;
# FFTW's thread pool state is inherited but its threads do not exist in the children, and each worker waits for them
# forever. The parent waits in Pool.map. pyfftw 0.13.1 (FFTW 3.3), CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(worker_threads=2, extra=0.0)
