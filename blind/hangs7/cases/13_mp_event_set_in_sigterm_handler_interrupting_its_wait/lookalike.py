# Look-alike: same server, worker and handler; no signal: the exit event is set by the normal shutdown path after
# 16 s and the server stops its worker. CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run("late-set")
