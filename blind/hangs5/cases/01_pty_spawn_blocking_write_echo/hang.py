# python/cpython#96522 ("pty.spawn deadlock": `yes | python3 -c "import pty; pty.spawn(['cat'])"` prints
# 2048 lines and hangs forever): pty.spawn's copy loop writes its stdin into the pty master with a
# blocking write and never checks that the master is writable. The child echoes what it reads back
# to the terminal; once the terminal's output buffer is full the child blocks writing, stops reading
# its input, the input buffer fills, and the parent's write never returns, so it never drains the
# output either. CPython 3.10.13 (fixed in 3.11 by gh-96639).
import pty
import sys

from common import feed_stdin, quiet_stdout

feed_stdin(50000)
print("ready", flush=True)
quiet_stdout()
pty.spawn([sys.executable, "reader.py", "50000"])
