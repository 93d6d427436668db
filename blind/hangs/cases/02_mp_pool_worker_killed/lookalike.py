# Look-alike: Pool(1); the worker is slow on the second task (sleeps 16 s) while the launcher
# waits in get(); it finishes by itself.
import multiprocessing as mp, time

def f(x):
    if x == 2:
        time.sleep(16)
    return x * 2

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    pool = ctx.Pool(1)
    assert pool.apply_async(f, (1,)).get(timeout=30) == 2
    res = pool.apply_async(f, (2,))
    print("ready", flush=True)
    print(res.get())
    pool.close(); pool.join()
