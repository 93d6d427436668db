# python/cpython#96062 (bpo-22393): multiprocessing.Pool gets stuck when a worker is killed.
# The idle worker of Pool(1) blocks in the task queue's get() holding the queue's read lock
# (a SemLock); SIGKILL it: the replacement worker waits on that lock forever, and
# apply_async().get() never returns.
import multiprocessing as mp, os, signal, time

def f(x):
    return x * 2

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    pool = ctx.Pool(1)
    assert pool.apply_async(f, (1,)).get(timeout=30) == 2
    victim = pool._pool[0]
    # wait until the idle worker sits in read() on the task pipe (it holds the read lock then)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            with open(f"/proc/{victim.pid}/syscall") as fh:
                if fh.read().split()[0] == "0":  # read
                    break
        except OSError:
            pass
        time.sleep(0.05)
    os.kill(victim.pid, signal.SIGKILL)
    res = pool.apply_async(f, (2,))
    print("ready", flush=True)
    print(res.get())
