# Look-alike: the same shared connection and Python function (CPython 3.11.7); the request thread waits
# for the scan to finish (a Python Event, GIL released) before it registers its function; the scan takes
# about 16 s (320 rows, 50 ms each).
import threading

from common import conn, in_query, scan

conn.executemany("insert into books(title) values (?)", [(f"more {i}",) for i in range(270)])
conn.commit()
done = threading.Event()


def scan_then_signal():
    scan()
    done.set()


t = threading.Thread(target=scan_then_signal)
t.start()
in_query.wait()
print("ready", flush=True)
done.wait()
conn.create_function("author_sort", 1, lambda a: a)
t.join()
print("registered")
