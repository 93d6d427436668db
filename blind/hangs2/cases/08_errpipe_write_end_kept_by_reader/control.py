# Control: the parent closes its copy of the write end after fork (as python-ptrace does).
import os, sys

errpipe_read, errpipe_write = os.pipe()
os.set_inheritable(errpipe_write, False)
pid = os.fork()
if pid == 0:
    os.close(errpipe_read)
    try:
        os.execv("/bin/true", ["true"])
    except OSError as e:
        os.write(errpipe_write, str(e.errno).encode())
    os._exit(127)
os.close(errpipe_write)
print("ready", flush=True)
data = os.read(errpipe_read, 100)
os.waitpid(pid, 0)
print("done", data)
