# Control: the maintainer's answer in #72: pass the original lock around: the helper writes through
# the handle that already holds the lock.
import os, tempfile
import portalocker

path = os.path.join(tempfile.gettempdir(), "bh2_22c.lock")

def append_record(fh, line):
    fh.write(line)

with open(path, "a") as outer:
    portalocker.lock(outer, portalocker.LOCK_EX)
    print("ready", flush=True)
    append_record(outer, "x\n")
    portalocker.unlock(outer)
print("done")
