# Look-alike: the same bar and worker; the worker is stuck inside tqdm.write (holding tqdm's lock) because
# the log collector paused, and the parent's refresh waits for the lock; the collector resumes after 16 s,
# the worker's write completes and releases the lock. tqdm 4.66.1 on CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(thread_lock=False, drain_after=16.0)
