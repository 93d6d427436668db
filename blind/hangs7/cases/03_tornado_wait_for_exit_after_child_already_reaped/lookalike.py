# Look-alike: the build step runs for 16 s and the helper awaits wait_for_exit() (without reaping it first);
# the SIGCHLD handler resolves the future when the step exits. tornado 6.4.1.
from common import run

if __name__ == "__main__":
    run(seconds=16.0, reap_first=False)
