# The instrument (child process) on the other end of the serial line (the master side of a pty, fd in
# argv[1]): reads a command up to CR, answers after DELAY seconds with REPLY, then waits for the next
# command (argv: fd, reply as a Python literal, delay).
import ast
import os
import sys
import time

fd, reply, delay = int(sys.argv[1]), ast.literal_eval(sys.argv[2]), float(sys.argv[3])
while True:
    cmd = b""
    while not cmd.endswith(b"\r"):
        try:
            b = os.read(fd, 1)
        except OSError:          # EIO: the host closed the line
            b = b""
        if not b:
            sys.exit(0)
        cmd += b
    time.sleep(delay)
    os.write(fd, reply)
