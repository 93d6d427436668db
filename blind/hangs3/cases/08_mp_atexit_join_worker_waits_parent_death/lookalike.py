# Look-alike: the same non-daemonic worker, but it also stops by itself when its work ends after
# 16 s; the parent's atexit join waits for it, then the program ends.
import multiprocessing as mp
import os
import threading


def worker(parent_alive_r, parent_alive_w):
    os.close(parent_alive_w)
    stop = threading.Event()

    def watchdog():
        os.read(parent_alive_r, 1)
        stop.set()

    threading.Thread(target=watchdog, name="parent-death-watchdog", daemon=True).start()
    threading.Timer(16, stop.set).start()   # the work ends after 16 s
    stop.wait()


if __name__ == "__main__":
    mp.set_start_method("fork")
    r, w = os.pipe()
    p = mp.Process(target=worker, args=(r, w), name="WorkerProcess")
    p.start()
    os.close(r)
    print("main done; exiting (multiprocessing joins the worker at exit)", flush=True)
    print("ready", flush=True)
