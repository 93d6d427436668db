# python/cpython#118981 (multiprocessing.popen_spawn_posix does not close child fds after spawn, can
# hang; also rwth-i6/returnn#1514): with the spawn start method the parent writes the pickled process
# object into a pipe while it still holds the child's read end; the child crashes at start-up (here:
# the main module fails to import in the child); the parent's write() on the full pipe never fails
# with EPIPE and never completes. CPython 3.11.7 (fixed only in 3.13.8/3.14 by PR #118982).
import multiprocessing as mp

if __name__ == "__mp_main__":
    raise RuntimeError("worker start-up failed: missing configuration")   # the child dies here


def work(blob):
    return len(blob)


if __name__ == "__main__":
    ctx = mp.get_context("spawn")
    blob = b"x" * (4 << 20)                 # the pickled process object is far larger than a pipe buffer
    p = ctx.Process(target=work, args=(blob,))
    print("ready", flush=True)              # start() blocks in write() to the child
    p.start()
    p.join()
    print("exit code", p.exitcode)
