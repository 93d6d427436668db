# Look-alike: the same pty.spawn on CPython 3.10.13 (blocking writes into the master), but only 20
# lines of input, which fit in the terminal's buffers; the child thinks for 16 s before reading them,
# then echoes them and exits, and pty.spawn returns.
import pty
import sys

from common import feed_stdin, quiet_stdout

feed_stdin(20)
print("ready", flush=True)
quiet_stdout()
pty.spawn([sys.executable, "reader.py", "20", "16"])
