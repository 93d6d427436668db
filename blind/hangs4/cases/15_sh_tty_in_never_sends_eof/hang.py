# amoffat/sh#184 ("command hangs if _in and _tty_in = True specified at the same time"): with a
# pseudo-terminal as the child's stdin, sh 1.11 writes the _in data to the pty master but never sends
# the terminal's end-of-file, so a child that reads its stdin to the end (cat, sort, wc...) waits on its
# terminal forever while sh waits for the child to exit. sh 1.11 on CPython 3.6.15 (fixed in sh 1.12).
import sh

from common import wait_tty_read

lines = "".join("%d\n" % (i * 7919 % 1000) for i in range(200))
p = sh.sort("-n", _in=lines, _tty_in=True, _bg=True)   # sort reads all of its input before writing
if wait_tty_read(p.pid):
    print("ready", flush=True)
p.wait()
print("sorted", len(str(p).split()))
