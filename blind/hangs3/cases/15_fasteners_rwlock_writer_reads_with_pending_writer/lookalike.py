# Look-alike: the write-lock holder works for 16 s (no read lock) while the second thread is a pending
# writer; then it releases the lock and the pending writer proceeds.
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
        while not lock.has_pending_writers:
            time.sleep(0.01)
        print("ready", flush=True)
        time.sleep(16)


t2 = threading.Thread(target=thread2, name="thread2")
t1 = threading.Thread(target=thread1, name="thread1")
t2.start()
t1.start()
t1.join()
t2.join()
print("done")
