import logging
import logging.handlers
import multiprocessing as mp
import threading
import time


def worker(results, seconds: float) -> None:
    time.sleep(seconds)
    results.put({"shard": 1, "rows": 1000})


def run(mp_log_level: int, prestart_log_queue: bool, worker_seconds: float) -> None:
    logq = mp.Queue()                                      # shipped to the log collector process
    results = mp.Queue()
    if prestart_log_queue:
        logq.put(logging.makeLogRecord({"msg": "collector online"}))   # its feeder thread starts now
    mplog = mp.get_logger()
    mplog.setLevel(mp_log_level)
    mplog.addHandler(logging.handlers.QueueHandler(logq))
    t = threading.Thread(target=worker, args=(results, worker_seconds), name="shard-1")
    t.start()
    print("ready", flush=True)
    logq.put(logging.makeLogRecord({"msg": "shard-1 started"}))   # first put: starts the feeder thread
    print("got", results.get(), flush=True)
    t.join()
