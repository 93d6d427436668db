# Look-alike: the daemon answers startProcess after 16 s (a slow program start with startsecs); supervisorctl
# waits on the socket meanwhile. supervisor 4.2.5.
from common import run

if __name__ == "__main__":
    run(delay=16.0)
