# Control: the fix of h5py#2585 applied by hand: acquire phil around fork (at-fork handlers), so the
# fork waits for the reading thread to release it and the child starts with a free lock.
import io, os, threading
import h5py, numpy as np
from h5py._objects import phil

os.register_at_fork(before=phil.acquire, after_in_parent=phil.release, after_in_child=phil.release)

buf = io.BytesIO()
with h5py.File(buf, "w") as f:
    f["values"] = np.arange(1000.0)
data = buf.getvalue()
with open("/tmp/bh2_17c.h5", "wb") as fh:
    fh.write(data)

in_read = threading.Event()
slow = threading.Event()

class SlowStore(io.BytesIO):
    def readinto(self, b):
        in_read.set()
        slow.wait()
        return super().readinto(b)

def reader():
    with h5py.File(SlowStore(data), "r") as f:
        f["values"][:]

t = threading.Thread(target=reader)
t.start()
in_read.wait()
threading.Timer(0.5, slow.set).start()   # the storage answers; fork() waits for phil meanwhile
pid = os.fork()
if pid == 0:
    print("ready", flush=True)
    with h5py.File("/tmp/bh2_17c.h5", "r") as f:
        os._exit(0 if f["values"][3] == 3.0 else 1)
t.join()
_, status = os.waitpid(pid, 0)
print("done", status)
