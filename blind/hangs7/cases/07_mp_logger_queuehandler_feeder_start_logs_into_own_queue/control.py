# Control: the workaround reported in python/cpython#91555 (documented by gh-135954): keep multiprocessing's logger
# above DEBUG, so the internal debug message of _start_thread() is not emitted into the queue. CPython 3.11.7.
import logging

from common import run

if __name__ == "__main__":
    run(mp_log_level=logging.INFO, prestart_log_queue=False, worker_seconds=0.2)
