# Look-alike: the refresh job is alive and holds the lock for 16 s of work, then releases it; the training job
# polls for it meanwhile. diskcache 5.6.3.
from common import run

if __name__ == "__main__":
    run(hold=16.0, expire=None, die=False)
