"""GNU libgomp is not fork-safe: after an OpenMP team ran, a forked child's first parallel
region waits for pool threads the fork did not copy (called through ctypes, as numpy or
scikit-learn builds call it). Control: the same region in a spawn child. Exit 4 without libgomp."""

import ctypes
import sys

import _ready

CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def parallel() -> None:
    gomp = ctypes.CDLL("libgomp.so.1")
    gomp.GOMP_parallel.argtypes = [CALLBACK, ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint]
    callback = CALLBACK(lambda _data: None)
    gomp.GOMP_parallel(callback, None, 4, 0)


def main() -> None:
    try:
        ctypes.CDLL("libgomp.so.1")
    except OSError:
        sys.stderr.write("no libgomp.so.1 (gcc's OpenMP runtime)\n")
        sys.exit(_ready.NO_RUNTIME)
    parallel()  # the team's threads now exist, idle in the pool
    _ready.fork_or_spawn(parallel)


if __name__ == "__main__":
    main()
