# Look-alike: the writer mutex is held by another thread whose write transaction commits after 16 s;
# the main thread's begin(write=True) waits for it, then completes.
import shutil, tempfile, threading, time
import lmdb

d = tempfile.mkdtemp(prefix="lmdb-look-")
env = lmdb.open(d, map_size=1 << 24)
held = threading.Event()


def slow_writer():
    txn = env.begin(write=True)
    txn.put(b"k", b"v1")
    held.set()
    time.sleep(16)
    txn.commit()


t = threading.Thread(target=slow_writer, name="slow-writer")
t.start()
held.wait()
print("ready", flush=True)
inner = env.begin(write=True)
inner.put(b"k", b"v2")
inner.commit()
t.join()
env.close()
shutil.rmtree(d)
print("done")
