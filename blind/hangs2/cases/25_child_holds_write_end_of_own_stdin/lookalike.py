# Look-alike: the child (write end not leaked) reads its stdin to EOF, then works 16 s before it
# exits; the parent waits in communicate() meanwhile.
import os, subprocess

r, w = os.pipe()
os.set_inheritable(r, True)
p = subprocess.Popen(["sh", "-c", "cat; sleep 16"], stdin=r, stdout=subprocess.PIPE, close_fds=False)
os.close(r)
with os.fdopen(w, "wb") as f:
    f.write(b"hello\n")
print("ready", flush=True)
out, _ = p.communicate()
print("done", out)
