# python/cpython#121605 (test_pyrepl.run_repl: reading master_fd blocks forever when the subprocess
# finishes, because slave_fd is still open; fixed by closing slave_fd earlier, PR #121606): a child
# runs on a pty; the parent reads the master until EIO, but it still holds the slave itself, so no
# EIO (hang-up) ever comes once the child has exited. CPython 3.11.7 (os.openpty, subprocess).
import os, subprocess, sys

master_fd, slave_fd = os.openpty()
proc = subprocess.Popen([sys.executable, "-c", "print('repl output'); print('exiting')"],
                        stdin=slave_fd, stdout=slave_fd, stderr=slave_fd)
# (missing) os.close(slave_fd)
output = []
announced = False
while True:
    if not announced and proc.poll() is not None:
        print("child exited", proc.returncode, flush=True)
        print("ready", flush=True)
        announced = True
    try:
        data = os.read(master_fd, 1024)       # after the output, blocks: this process holds the slave
    except OSError:
        break
    if not data:
        break
    output.append(data)
    if b"exiting" in b"".join(output):
        proc.wait()
print(b"".join(output))
