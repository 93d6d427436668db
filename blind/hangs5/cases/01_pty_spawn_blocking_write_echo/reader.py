# The child on the terminal: a line filter (like `cat`): reads N lines from its terminal and writes each
# back, then exits (argv: number of lines, optional seconds to think before reading).
import sys
import time

n = int(sys.argv[1])
if len(sys.argv) > 2:
    time.sleep(float(sys.argv[2]))
for i, line in enumerate(sys.stdin, 1):
    sys.stdout.write(line)
    sys.stdout.flush()
    if i == n:
        break
