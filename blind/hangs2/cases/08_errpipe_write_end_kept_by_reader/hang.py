# vstinner/python-ptrace#43 (createChild without close(errpipe_write)): the parent forks a child
# that exec()s; the exec-status pipe's write end is close-on-exec in the child, but the parent
# keeps its own copy open, so its read() for EOF never returns.
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
# parent: the bug: errpipe_write is not closed here
print("ready", flush=True)
data = os.read(errpipe_read, 100)  # waits for EOF: held open by this process itself
os.waitpid(pid, 0)
print("done", data)
