# Control: the fix of vmware-archive/pytest-salt#6: the fixture uses a multiprocessing.Queue, so the
# daemon's "started" message reaches the parent, which then stops it. CPython 3.11.7 (fork).
import multiprocessing as mp


def daemon(started, stop):
    started.put(("started", mp.current_process().pid))
    stop.wait()


if __name__ == "__main__":
    mp.set_start_method("fork")
    started = mp.Queue()                   # the fix: a queue shared with the child
    stop = mp.Event()
    proc = mp.Process(target=daemon, args=(started, stop))
    proc.start()
    print("ready", flush=True)
    print("daemon:", started.get())        # waits on the parent's own, empty queue
    stop.set()
    proc.join()
