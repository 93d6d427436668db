# Look-alike: same pool and callback, the task is slow (16 s) and the callback works; the launcher
# waits in get() meanwhile.
import multiprocessing as mp, time

def square(x):
    time.sleep(16)
    return x * x

results = []
def store(value):
    results.append(value)

if __name__ == "__main__":
    pool = mp.get_context("fork").Pool(2)
    res = pool.apply_async(square, (3,), callback=store)
    print("ready", flush=True)
    print(res.get(), results)
    pool.close(); pool.join()
