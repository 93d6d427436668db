# Control: the fix of new-usemame/Calibre-Web-NextGen#377: every use of the shared raw connection takes
# one Python lock (queries and create_function alike), so create_function waits for the query to end
# in Python, with the GIL released, instead of inside SQLite. CPython 3.11.7.
import threading

from common import conn, in_query

db_lock = threading.Lock()


def scan_locked():
    with db_lock:
        rows = conn.execute("select id from books order by title_sort(title)").fetchall()
    print("scan done:", len(rows), flush=True)


t = threading.Thread(target=scan_locked)
t.start()
in_query.wait()
print("ready", flush=True)
with db_lock:
    conn.create_function("author_sort", 1, lambda a: a)
t.join()
print("registered")
