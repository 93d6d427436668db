# Control: the workaround of the issue: every event is entered before run() starts (or run(blocking=False) is
# polled); the flush runs after 0.5 s. CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(nightly_in=86400.0, add_before_start=True)
