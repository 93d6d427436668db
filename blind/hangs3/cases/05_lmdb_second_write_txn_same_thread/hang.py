# jnwatson/py-lmdb#39 (Prevent multiple-writer deadlock): a thread that holds an LMDB write
# transaction begins a second top-level write transaction on the same environment: it waits on the
# environment's writer mutex, which it holds itself. lmdb 1.4.1 on CPython 3.11.7.
import os, shutil, tempfile
import lmdb

d = tempfile.mkdtemp(prefix="lmdb-hang-")
env = lmdb.open(d, map_size=1 << 24)
outer = env.begin(write=True)
outer.put(b"k", b"v1")
print("ready", flush=True)
inner = env.begin(write=True)           # the writer mutex is held by this very thread
inner.put(b"k", b"v2")
inner.commit()
outer.commit()
shutil.rmtree(d)
print("done")
