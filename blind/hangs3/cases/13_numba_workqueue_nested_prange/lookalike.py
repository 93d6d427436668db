# Look-alike: a single (non-nested) parallel region on the same workqueue pool that works for about
# 16 s (its size is calibrated first); the caller waits in the pool's parallel_for, then completes.
import time
import warnings
warnings.simplefilter("ignore")
import numba
import numpy as np

numba.config.THREADING_LAYER = "workqueue"


@numba.njit(parallel=True)
def work(n, reps):
    out = np.zeros(n)
    for i in numba.prange(n):
        acc = 0.0
        for r in range(reps):
            acc += np.sin(i + r * 1e-3)
        out[i] = acc
    return out


work(8, 10)
t0 = time.time()
work(64, 200000)
dt = max(time.time() - t0, 1e-3)
reps = int(200000 * 21.0 / dt)
print("calibrated", dt, reps, flush=True)
print("ready", flush=True)
t0 = time.time()
work(64, reps)
print("done in", round(time.time() - t0, 1))
