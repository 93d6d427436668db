# Control: the fix of wool#305: the worker is daemonic, so the atexit handler terminates it before
# joining it, and the parent exits.
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
    stop.wait()


if __name__ == "__main__":
    mp.set_start_method("fork")
    r, w = os.pipe()
    p = mp.Process(target=worker, args=(r, w), name="WorkerProcess", daemon=True)
    p.start()
    os.close(r)
    print("main done; exiting (multiprocessing joins the worker at exit)", flush=True)
    print("ready", flush=True)
