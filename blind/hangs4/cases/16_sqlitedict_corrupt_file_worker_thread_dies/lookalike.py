# Look-alike: sqlitedict 1.6.0 and the same SqliteDict() call waiting for its worker thread's first
# reply; the cache file is a valid database, but another connection of this process (a maintenance
# thread) holds an exclusive transaction on it for 16 s, so the worker thread waits on SQLite's lock
# (busy timeout raised to 60 s) and then answers. CPython 3.11.7.
import functools
import os
import sqlite3
import sys
import threading
import time

import sqlitedict
from sqlitedict import SqliteDict

sqlitedict.sqlite3 = type(sys)("sqlite3_60s")     # sqlitedict's connections: busy timeout 60 s
sqlitedict.sqlite3.__dict__.update(sqlite3.__dict__)
sqlitedict.sqlite3.connect = functools.partial(sqlite3.connect, timeout=60)

path = os.path.abspath("features.sqlite")
if os.path.exists(path):
    os.remove(path)
sqlite3.connect(path).close()
held = threading.Event()


def maintenance():
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    held.set()
    time.sleep(16)
    conn.execute("COMMIT")
    conn.close()


threading.Thread(target=maintenance).start()
held.wait()
print("ready", flush=True)
cache = SqliteDict(path, autocommit=True)      # the worker waits on the exclusive lock, then replies
cache["epoch"] = 1
cache.close()
print("cache opened")
