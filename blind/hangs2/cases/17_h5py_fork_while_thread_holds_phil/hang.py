# h5py/h5py#2584: a thread reads an HDF5 file through h5py (holding h5py's global lock `phil`) while
# the main thread forks; the child's first h5py call waits for a `phil` whose holder was not copied.
# Here the reading thread holds phil inside a Python file-like object's read() (slow storage),
# which h5py calls with phil held. h5py 3.11.0.
import io, os, threading
import h5py, numpy as np

buf = io.BytesIO()
with h5py.File(buf, "w") as f:
    f["values"] = np.arange(1000.0)
data = buf.getvalue()
with open("/tmp/bh2_17.h5", "wb") as fh:
    fh.write(data)

in_read = threading.Event()
slow = threading.Event()

class SlowStore(io.BytesIO):
    def readinto(self, b):
        in_read.set()
        slow.wait()                      # storage latency, with phil held by h5py
        return super().readinto(b)

def reader():
    with h5py.File(SlowStore(data), "r") as f:
        f["values"][:]

t = threading.Thread(target=reader)
t.start()
in_read.wait()
pid = os.fork()
if pid == 0:
    print("ready", flush=True)
    with h5py.File("/tmp/bh2_17.h5", "r") as f:   # child: waits for phil forever
        os._exit(0 if f["values"][3] == 3.0 else 1)
slow.set()
t.join()
_, status = os.waitpid(pid, 0)
print("done", status)
