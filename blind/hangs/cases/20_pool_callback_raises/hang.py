# python/cpython#83371 ("_result_handler dies on raised exceptions [multiprocessing]"): a callback
# passed to apply_async raises; it runs on the pool's result-handler thread, which dies; the
# result's event is never set and get() (and every later result) waits forever.
# Python 3.11.7 (affected; fixed by python/cpython#155777 for 3.16).
import multiprocessing as mp

def square(x):
    return x * x

def store(value):
    raise ValueError("callback raises")   # e.g. a bug in the code that records results

if __name__ == "__main__":
    pool = mp.get_context("fork").Pool(2)
    res = pool.apply_async(square, (3,), callback=store)
    print("ready", flush=True)
    print(res.get())
