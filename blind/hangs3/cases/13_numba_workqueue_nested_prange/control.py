# Control: the workaround from the thread (no nested parallel launch on the workqueue layer): the outer
# loop is a plain range, the inner kernel keeps its prange. Same versions; it completes.
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


@numba.njit
def outer(x):
    out = np.empty(4)
    for j in range(4):
        out[j] = inner(x)
    return out


x = np.ones(100)
print("inner alone", inner(x), numba.threading_layer(), flush=True)
outer.compile("(float64[:],)")
print("ready", flush=True)
print(outer(x))
print("done")
