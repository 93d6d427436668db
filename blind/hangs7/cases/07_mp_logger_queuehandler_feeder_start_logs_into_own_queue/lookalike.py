# Look-alike: same handler on multiprocessing's DEBUG logger, but the log queue's feeder thread was started before
# the handler was attached; the main thread then waits 16 s on the results queue for the worker. CPython 3.11.7.
import logging

from common import run

if __name__ == "__main__":
    run(mp_log_level=logging.DEBUG, prestart_log_queue=True, worker_seconds=16.0)
