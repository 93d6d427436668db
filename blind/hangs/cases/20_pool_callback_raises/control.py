# Control: the behaviour of the fix (python/cpython#155777): an exception in the callback becomes
# the job's outcome instead of killing the result-handler thread; here the callback is wrapped so
# that the error is recorded and get() returns.
import multiprocessing as mp

def square(x):
    return x * x

errors = []
def store(value):
    try:
        raise ValueError("callback raises")
    except Exception as e:
        errors.append(e)

if __name__ == "__main__":
    pool = mp.get_context("fork").Pool(2)
    res = pool.apply_async(square, (3,), callback=store)
    print("ready", flush=True)
    print(res.get(), errors)
    pool.close(); pool.join()
