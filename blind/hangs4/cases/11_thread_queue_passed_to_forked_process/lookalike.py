# Look-alike: the fixed fixture (multiprocessing.Queue, fork, CPython 3.11.7) with a daemon that takes
# 16 s to start: the parent waits on the queue for its "started" message, then stops it.
import multiprocessing as mp
import time


def daemon(started, stop):
    time.sleep(16)                          # a slow start: the message comes after 16 s
    started.put(("started", mp.current_process().pid))
    stop.wait()


if __name__ == "__main__":
    mp.set_start_method("fork")
    started = mp.Queue()
    stop = mp.Event()
    proc = mp.Process(target=daemon, args=(started, stop))
    proc.start()
    print("ready", flush=True)
    print("daemon:", started.get())        # waits on the parent's own, empty queue
    stop.set()
    proc.join()
