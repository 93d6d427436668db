# A syslog daemon stand-in, started the way init starts daemons: it double-forks (re-parented, not in
# the app's process tree), binds the /dev/log-like datagram socket, and copies every message to its
# destinations. argv: socket path, mode: "pipe" (a console FIFO nobody reads, as syslog-ng's default
# xconsole pipe()), "pipe-drained-after-16" (an outside reader starts reading that FIFO after 16 s),
# or "file" (no pipe destination).
import os
import socket
import sys
import threading
import time

path, mode = sys.argv[1], sys.argv[2]
if os.fork():
    os._exit(0)                                  # the starter exits; the daemon is re-parented
if os.fork():
    os._exit(0)
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(path)
if mode.startswith("pipe"):
    fifo = path + ".xconsole"
    os.mkfifo(fifo)
    dest = os.open(fifo, os.O_RDWR)              # the console pipe; writes block once it is full
    if mode == "pipe-drained-after-16":
        def outside_reader():
            time.sleep(16)
            r = os.open(fifo, os.O_RDONLY)
            while os.read(r, 65536):
                pass
        threading.Thread(target=outside_reader, daemon=True).start()
else:
    dest = os.open(path + ".log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
print("syslogd up", flush=True)
sys.stdout.close()
os.close(1)
while True:
    msg = sock.recv(8192)
    if msg.endswith(b"__quit__\x00"):
        break
    os.write(dest, msg + b"\n")
for p in (path, path + ".xconsole", path + ".log"):
    try:
        os.unlink(p)
    except FileNotFoundError:
        pass
