# numba/numba#3551 (Workqueue scheduler hangs on prange calling function containing prange) and
# numba#4485: the workqueue threading layer is not re-entrant; a parallel region launched from a pool
# thread waits for pool threads that are all busy in (or waiting on) the outer region.
# numba 0.45.1, llvmlite 0.29.0, numpy 1.17.5 on CPython 3.7.16.
import warnings
warnings.simplefilter("ignore")
import numba
import numpy as np

numba.config.THREADING_LAYER = "workqueue"


@numba.njit(parallel=True)
def inner(x):
    s = 0.0
    for i in numba.prange(x.shape[0]):
        s += x[i]
    return s


@numba.njit(parallel=True)
def outer(x):
    out = np.empty(4)
    for j in numba.prange(4):
        out[j] = inner(x)
    return out


x = np.ones(100)
print("inner alone", inner(x), numba.threading_layer(), flush=True)
outer.compile("(float64[:],)")      # compile before the call, so the wait below is the only thing left
print("ready", flush=True)
print(outer(x))
print("done")
