# Look-alike: the spawned child is healthy but slow to start (its start-up takes 16 s before it reads
# the process object); the parent's write() waits, then the child runs and exits.
import multiprocessing as mp
import time

if __name__ == "__mp_main__":
    time.sleep(16)                          # slow start-up (loading configuration)


def work(blob):
    return len(blob)


if __name__ == "__main__":
    ctx = mp.get_context("spawn")
    blob = b"x" * (4 << 20)
    p = ctx.Process(target=work, args=(blob,))
    print("ready", flush=True)
    p.start()
    p.join()
    print("exit code", p.exitcode)
