# Look-alike: the same h5py read through the service-thread file object (h5py 3.11.0, CPython 3.11.7),
# with no unreachable h5py object pending; the service's first read is slow (16 s), the caller polls its
# reply every second holding phil, then the file is read and the program ends.
import io

import h5py
import numpy as np

from remote import RemoteFile, start_service

buf = io.BytesIO()
with h5py.File(buf, "w") as f:
    f["labels"] = np.arange(100_000)
data = buf.getvalue()

preview = h5py.File(io.BytesIO(data), "r")       # an earlier preview, closed properly
preview.close()

start_service(first_delay=16)
print("ready", flush=True)
with h5py.File(RemoteFile(data), "r") as f:       # the first remote read takes 16 s
    print("labels", f["labels"][:5])
