# wool-labs/wool#294 (Live worker processes wedge interpreter exit via the multiprocessing atexit
# join): a non-daemonic multiprocessing worker stops only when its parent dies (a watchdog reading a
# pipe the parent holds); at exit the parent's multiprocessing atexit handler joins that worker.
# CPython 3.11.7 (fork start method).
import multiprocessing as mp
import os
import threading


def worker(parent_alive_r, parent_alive_w):
    os.close(parent_alive_w)            # only the parent keeps the write end
    stop = threading.Event()

    def watchdog():
        os.read(parent_alive_r, 1)      # EOF once the parent has died
        stop.set()

    threading.Thread(target=watchdog, name="parent-death-watchdog", daemon=True).start()
    stop.wait()                         # the worker's "serve until stopped"


if __name__ == "__main__":
    mp.set_start_method("fork")
    r, w = os.pipe()
    p = mp.Process(target=worker, args=(r, w), name="WorkerProcess")   # not daemonic
    p.start()
    os.close(r)
    print("main done; exiting (multiprocessing joins the worker at exit)", flush=True)
    print("ready", flush=True)
    # end of the program: multiprocessing.util._exit_function joins every live non-daemonic child
