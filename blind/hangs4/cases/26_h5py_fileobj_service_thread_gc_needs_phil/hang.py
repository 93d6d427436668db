# h5py/h5py#2019 ("Potential deadlock from some combination of h5py, gc, and fsspec"; documented by PR
# #2021): h5py serialises HDF5 calls with a global lock (phil) that is held while HDF5 calls back into a
# Python file-like object, and that is also needed to deallocate h5py objects. If the file-like object's
# reads are served by another thread and a garbage collection runs in that thread while unreachable h5py
# objects are pending, the service thread waits for phil in the deallocator, and the thread holding
# phil waits for the service thread's reply. h5py 3.11.0 (numpy 1.26.4) on CPython 3.11.7.
import io

import h5py
import numpy as np

from remote import RemoteFile, start_service

buf = io.BytesIO()
with h5py.File(buf, "w") as f:
    f["labels"] = np.arange(100_000)
data = buf.getvalue()

preview = h5py.File(io.BytesIO(data), "r")       # an earlier preview, left in a reference cycle
cycle = [preview["labels"]]
cycle.append(cycle)
del cycle, preview

start_service()
print("ready", flush=True)
with h5py.File(RemoteFile(data), "r") as f:       # phil held while HDF5 reads through RemoteFile
    print("labels", f["labels"][:5])
