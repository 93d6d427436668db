import multiprocessing as mp
import time

import numpy as np
import pyfftw

X = np.random.default_rng(0).standard_normal((512, 512))
CFG = {"threads": 2, "extra": 0.0}


def spectrum_norm(scale: float) -> float:
    time.sleep(CFG["extra"])
    Y = pyfftw.interfaces.numpy_fft.fftn(X, threads=CFG["threads"])
    return float(np.linalg.norm(scale * Y))


def run(worker_threads: int, extra: float) -> None:
    Z = pyfftw.interfaces.numpy_fft.fftn(X, threads=2)       # the parent uses FFTW's threads first
    print("parent spectrum", round(float(np.abs(Z).max()), 1), flush=True)
    CFG["threads"], CFG["extra"] = worker_threads, extra
    with mp.get_context("fork").Pool(2) as pool:
        print("ready", flush=True)
        print("norms", pool.map(spectrum_norm, [1e-2, 1e-1, 1e0, 1e1]), flush=True)
