# new-usemame/Calibre-Web-NextGen#377 ("break the GIL<->sqlite-mutex deadlock that froze the app and
# CI"): the app shares one sqlite3 connection between threads (check_same_thread=False) and registers
# Python functions on it. sqlite3_step() runs with the GIL released and the connection's mutex held,
# and re-takes the GIL to call the Python function; Connection.create_function() calls into SQLite
# while holding the GIL and waits for the connection's mutex. A request thread registering a function
# while another thread's query is inside the SQLite engine deadlocks both: AB-BA between the GIL and
# SQLite's connection mutex. CPython 3.11.7 (SQLite 3.x, serialized mode).
import threading

from common import conn, in_query, scan

t = threading.Thread(target=scan)
t.start()
in_query.wait()
print("ready", flush=True)
conn.create_function("author_sort", 1, lambda a: a)   # another request registers its function
t.join()
print("registered")
