# Control: the same program on sh 1.12.0 (fix of amoffat/sh#184: sh writes the terminal's end-of-file
# after the _in data), so sort sees the end of its input, answers and exits. CPython 3.6.15.
import sh

from common import wait_tty_read

lines = "".join("%d\n" % (i * 7919 % 1000) for i in range(200))
p = sh.sort("-n", _in=lines, _tty_in=True, _bg=True)
if wait_tty_read(p.pid, deadline=2.0):
    pass
print("ready", flush=True)
p.wait()
print("sorted", len(str(p).split()))
