# The exec'd tool (a model server): serves until it reads "stop" on its control pipe (fd in argv[1]),
# or, with a second argument, until that many seconds have passed.
import os
import select
import sys

fd = int(sys.argv[1])
limit = float(sys.argv[2]) if len(sys.argv) > 2 else None
r, _, _ = select.select([fd], [], [], limit)
if r:
    os.read(fd, 64)
