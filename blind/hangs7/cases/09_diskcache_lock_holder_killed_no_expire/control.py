# Control: the workaround of the issue thread: the lock is taken with an expiry (expire=3 s), so the dead holder's
# key expires and the training job gets the lock. diskcache 5.6.3.
from common import run

if __name__ == "__main__":
    run(hold=0.2, expire=3, die=True)
