# Control: the same program on the fixed release (fasteners 0.17.3, fix of #86): a writer may take
# a read lock whatever writers are pending; it completes.
import threading
import time
import fasteners

lock = fasteners.ReaderWriterLock()
holding = threading.Event()


def thread2():
    holding.wait()
    with lock.write_lock():
        print("thread2 got the write lock", flush=True)


def thread1():
    with lock.write_lock():
        holding.set()
        while not lock.has_pending_writers:      # handshake: thread2 is queued
            time.sleep(0.01)
        print("ready", flush=True)
        with lock.read_lock():                   # waits for the pending writer
            print("thread1 got the read lock", flush=True)


t2 = threading.Thread(target=thread2, name="thread2")
t1 = threading.Thread(target=thread1, name="thread1")
t2.start()
t1.start()
t1.join()
t2.join()
print("done")
