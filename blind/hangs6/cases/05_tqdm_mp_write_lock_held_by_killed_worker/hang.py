# tqdm/tqdm#1500 ("Don't attempt to acquire global lock ...": "When one of the processes exited without
# cleaning up properly, another of the processes ended up hanging trying to acquire the tqdm lock"; see also
# tqdm/tqdm#1751): tqdm's default write lock includes a multiprocessing RLock (a POSIX semaphore) shared
# with forked workers. A worker stuck inside tqdm.write (its log pipe is full) is SIGKILLed by the
# supervisor while holding it; the parent's next bar refresh waits for the semaphore forever.
# tqdm 4.66.1 on CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(thread_lock=False)
