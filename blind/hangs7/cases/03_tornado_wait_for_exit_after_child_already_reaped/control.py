# Control: the fix of the discussion (#3669 direction): do not reap the child behind tornado's back;
# only wait_for_exit() is used, and tornado's SIGCHLD handler delivers the exit code. tornado 6.4.1.
from common import run

if __name__ == "__main__":
    run(seconds=0.2, reap_first=False)
