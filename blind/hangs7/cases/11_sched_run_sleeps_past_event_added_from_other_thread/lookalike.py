# Look-alike: same scheduler thread and late-entered flush, but the earliest known event is 16 s away: run() sleeps
# 16 s, runs it, then runs the overdue flush. CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(nightly_in=16.0, add_before_start=False)
