# python/cpython#90321 (bpo-46163, "multiprocessing logger deadlocks if used with logging.handlers.QueueHandler")
# and python/cpython#91555: the job ships multiprocessing's own logger (DEBUG) through a QueueHandler into a
# multiprocessing.Queue. The first put() on that queue holds the queue's _notempty lock (a non-reentrant Lock) and
# calls _start_thread(), which logs 'Queue._start_thread()' with util.debug() -> the QueueHandler -> put() on the same
# queue -> `with self._notempty` again: the main thread waits for a lock it holds itself. CPython 3.11.7.
import logging

from common import run

if __name__ == "__main__":
    run(mp_log_level=logging.DEBUG, prestart_log_queue=False, worker_seconds=0.2)
