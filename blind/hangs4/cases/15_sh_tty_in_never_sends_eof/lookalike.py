# Look-alike: sh 1.11 (the buggy release) with the same pty stdin; the child reads a known number of
# lines (head -n 201), and the input generator sends the last line 16 s after the first 200, so the
# child gets all its input, answers and exits. CPython 3.6.15.
import time

import sh

from common import wait_tty_read


def feed():
    yield "".join("%d\n" % (i * 7919 % 1000) for i in range(200))
    time.sleep(16)
    yield "999\n"


p = sh.head("-n", "201", _in=feed(), _tty_in=True, _bg=True)
if wait_tty_read(p.pid):
    print("ready", flush=True)
p.wait()
print("lines", len(str(p).split()))
