# Look-alike: the parent (write end closed) reads the exec-status pipe of a child that stays 16 s
# in a pre-exec step before it exec()s.
import os, sys, time

errpipe_read, errpipe_write = os.pipe()
os.set_inheritable(errpipe_write, False)
pid = os.fork()
if pid == 0:
    os.close(errpipe_read)
    time.sleep(16)
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
