# Control: the supported way: the inner write transaction is a child of the outer one (parent=),
# so it does not take the writer mutex again.
import os, shutil, tempfile
import lmdb

d = tempfile.mkdtemp(prefix="lmdb-ctl-")
env = lmdb.open(d, map_size=1 << 24)
outer = env.begin(write=True)
outer.put(b"k", b"v1")
print("ready", flush=True)
inner = env.begin(write=True, parent=outer)
inner.put(b"k", b"v2")
inner.commit()
outer.commit()
env.close()
shutil.rmtree(d)
print("done")
