# Control: the fix of zuvloop#6: only the child's end of the pipe is inheritable.
import os, subprocess

r, w = os.pipe()
os.set_inheritable(r, True)
os.set_inheritable(w, False)         # only the child's end is inheritable
p = subprocess.Popen(["cat"], stdin=r, stdout=subprocess.PIPE, close_fds=False)
os.close(r)
with os.fdopen(w, "wb") as f:
    f.write(b"hello\n")
print("ready", flush=True)
out, _ = p.communicate()
print("done", out)
