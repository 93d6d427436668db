# Control: the workaround documented for h5py/h5py#2019 (h5py PR #2021): garbage collection is disabled
# while h5py reads through the service-thread file object, so no deallocation needs phil in the service
# thread; the file is read and the program ends. h5py 3.11.0 on CPython 3.11.7.
import gc
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
gc.disable()                                      # the workaround documented by h5py PR #2021
try:
    with h5py.File(RemoteFile(data), "r") as f:
        print("labels", f["labels"][:5])
finally:
    gc.enable()
