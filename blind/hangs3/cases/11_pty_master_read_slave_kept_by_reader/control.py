# Control: the fix of PR #121606: close the slave in the parent right after starting the child; the
# read ends with EIO once the child has exited.
import os, subprocess, sys

master_fd, slave_fd = os.openpty()
proc = subprocess.Popen([sys.executable, "-c", "print('repl output'); print('exiting')"],
                        stdin=slave_fd, stdout=slave_fd, stderr=slave_fd)
os.close(slave_fd)
print("ready", flush=True)
output = []
while True:
    try:
        data = os.read(master_fd, 1024)
    except OSError:
        break
    if not data:
        break
    output.append(data)
proc.wait()
print("child exited", proc.returncode)
print(b"".join(output))
