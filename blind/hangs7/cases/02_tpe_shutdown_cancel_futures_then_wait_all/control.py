# Control: the workaround of the issues: wait only for the futures that were not cancelled. CPython 3.13.0.
from common import run

if __name__ == "__main__":
    run(slow=0, drop_cancelled=True)
