# piskvorky/sqlitedict#129 ("Loading a corrupted database does not raise exception gracefully": "the
# error raises in a thread which then dies and leave your console hanging"; same root cause as #90, fixed
# by PR #107): sqlitedict 1.6.0 opens the SQLite connection in its worker thread; when the file is not a
# database, the worker thread dies on the exception and SqliteDict() waits forever for the reply to its
# first request. Here a feature cache left half-written by a crashed run is reopened.
# sqlitedict 1.6.0 on CPython 3.11.7 (the error is raised to the caller in 2.x).
import os
import threading
import time

from sqlitedict import SqliteDict

path = os.path.abspath("features.sqlite")
with open(path, "wb") as f:                    # what the crashed run left: not an SQLite file
    f.write(b"\x00\x17partial-write\x00" * 300)


def announce_when_worker_gone():
    while True:
        workers = [t for t in threading.enumerate() if type(t).__name__ == "SqliteMultithread"]
        if workers and not workers[0].is_alive():
            break
        if not workers and time.time() - t0 > 0.5:
            break
        time.sleep(0.05)
    print("ready", flush=True)


t0 = time.time()
threading.Thread(target=announce_when_worker_gone, daemon=True).start()
cache = SqliteDict(path, autocommit=True)      # waits for the dead worker thread's reply
cache["epoch"] = 1
cache.close()
print("cache opened")
