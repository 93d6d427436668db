# Control: the same program on sqlitedict 2.1.0 (after piskvorky/sqlitedict#107/#129 the worker's error
# is raised in the caller): SqliteDict() raises DatabaseError, the program removes the broken cache and
# builds a new one. CPython 3.11.7.
import os
import sqlite3

from sqlitedict import SqliteDict

path = os.path.abspath("features.sqlite")
with open(path, "wb") as f:                    # what the crashed run left: not an SQLite file
    f.write(b"\x00\x17partial-write\x00" * 300)
print("ready", flush=True)
try:
    cache = SqliteDict(path, autocommit=True)
except sqlite3.DatabaseError as exc:
    print("broken cache:", exc)
    os.remove(path)
    cache = SqliteDict(path, autocommit=True)
cache["epoch"] = 1
cache.close()
print("cache opened")
