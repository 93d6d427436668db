# Look-alike: the parent reads the pty master of a child that is alive and writes its last line
# after 16 s, then exits; the read ends with EIO.
import os, subprocess, sys

master_fd, slave_fd = os.openpty()
proc = subprocess.Popen([sys.executable, "-c", "import time; print('repl output', flush=True); time.sleep(16); print('exiting')"],
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
