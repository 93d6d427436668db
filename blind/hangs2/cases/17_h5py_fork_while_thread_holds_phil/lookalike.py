# Look-alike: the same fork while a thread holds phil; the child does not touch h5py and works 16 s.
import io, os, threading, time
import h5py, numpy as np

buf = io.BytesIO()
with h5py.File(buf, "w") as f:
    f["values"] = np.arange(1000.0)
data = buf.getvalue()

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
pid = os.fork()
if pid == 0:
    print("ready", flush=True)
    time.sleep(16)
    os._exit(0)
slow.set()
t.join()
_, status = os.waitpid(pid, 0)
print("done", status)
