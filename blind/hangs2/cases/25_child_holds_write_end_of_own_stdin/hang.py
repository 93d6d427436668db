# Kludex/zuvloop#6: the Popen implementation marked BOTH ends of the stdin pipe inheritable; the
# child (/bin/cat) inherits the parent's write end of its own stdin, never sees EOF, and the
# parent's communicate() waits forever for the child's stdout to end.
import os, subprocess

r, w = os.pipe()
os.set_inheritable(r, True)
os.set_inheritable(w, True)          # the bug: our end leaks into the child
p = subprocess.Popen(["cat"], stdin=r, stdout=subprocess.PIPE, close_fds=False)
os.close(r)
with os.fdopen(w, "wb") as f:
    f.write(b"hello\n")
print("ready", flush=True)
out, _ = p.communicate()
print("done", out)
