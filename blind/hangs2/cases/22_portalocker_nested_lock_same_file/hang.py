# wolph/portalocker#72 ("is lock reenterable?"): portalocker's exclusive lock taken on a file, then
# taken again in the same thread through a second handle; flock() treats the two open file
# descriptions independently, so the second, blocking lock waits for the first, which only this
# thread can release. portalocker 2.8.2.
import os, tempfile
import portalocker

path = os.path.join(tempfile.gettempdir(), "bh2_22.lock")

def append_record(line):
    with open(path, "a") as fh:
        portalocker.lock(fh, portalocker.LOCK_EX)      # blocking flock
        fh.write(line)
        portalocker.unlock(fh)

with open(path, "a") as outer:
    portalocker.lock(outer, portalocker.LOCK_EX)
    print("ready", flush=True)
    append_record("x\n")                              # same file, same thread, second handle
    portalocker.unlock(outer)
print("done")
