import sqlite3
import tempfile
import threading
import time
import os

db = os.path.join(tempfile.mkdtemp(prefix="library-"), "metadata.db")
conn = sqlite3.connect(db, check_same_thread=False)   # one shared connection, as in the web app
conn.execute("create table books(id integer primary key, title text)")
conn.executemany("insert into books(title) values (?)", [(f"book {i}",) for i in range(50)])
conn.commit()
in_query = threading.Event()


def title_sort(title):
    """A Python function registered with SQLite, called for every row of the query."""
    in_query.set()
    time.sleep(0.05)                 # (I/O, a lookup...): the GIL is released, the db mutex stays held
    return title.lower()


conn.create_function("title_sort", 1, title_sort)


def scan():
    rows = conn.execute("select id from books order by title_sort(title)").fetchall()
    print("scan done:", len(rows), flush=True)
