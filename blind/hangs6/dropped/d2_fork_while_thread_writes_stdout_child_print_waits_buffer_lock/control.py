# Control: ansible's fix: every write to stdout holds a lock that os.register_at_fork takes before fork and
# releases after it, so no write straddles a fork; 200 workers start, print and end. CPython 3.11.7.
from common import run

run(fork_safe=True)
