# vmware-archive/pytest-salt#6 ("The queue needs to be a multiprocessing Queue, not a regular Queue"): a
# queue.Queue handed to a multiprocessing.Process (fork) is copied into the child; the child's put()
# lands in its own copy, and the parent's get() on the original waits for an item nothing in the tree
# can put. Here a test fixture starts a daemon process and waits for its "started" message; the daemon
# then serves until it is told to stop. CPython 3.11.7 (multiprocessing, fork start method).
import multiprocessing as mp
import queue


def daemon(started, stop):
    started.put(("started", mp.current_process().pid))   # goes into the child's copy of the queue
    stop.wait()


if __name__ == "__main__":
    mp.set_start_method("fork")
    started = queue.Queue()
    stop = mp.Event()
    proc = mp.Process(target=daemon, args=(started, stop))
    proc.start()
    print("ready", flush=True)
    print("daemon:", started.get())        # waits on the parent's own, empty queue
    stop.set()
    proc.join()
