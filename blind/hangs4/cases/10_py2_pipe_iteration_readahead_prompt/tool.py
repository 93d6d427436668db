# An interactive tool (a migration script): reports a plan, then asks for confirmation on stdin and
# waits for the answer (argv[1], if given: seconds after which it proceeds with the default answer).
from __future__ import print_function
import select
import sys

for i in range(3):
    print("plan: migrate table_%d" % i)
print("Apply these changes? [y/N]")
sys.stdout.flush()
if len(sys.argv) > 1:
    ready, _, _ = select.select([sys.stdin], [], [], float(sys.argv[1]))
    answer = sys.stdin.readline().strip() if ready else "n"
else:
    answer = sys.stdin.readline().strip()
print("applied" if answer == "y" else "skipped")
sys.stdout.flush()
