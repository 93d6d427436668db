# Look-alike: the same tool is stopped by SIGTTOU, but the shell's job control brings it to the foreground
# (tcsetpgrp + SIGCONT, as `fg` does) 16 s later; the tool finishes. CPython 3.11.7.
from common import run

run("bug", fg_after=16)
