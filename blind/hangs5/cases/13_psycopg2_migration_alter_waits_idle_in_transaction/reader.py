# Another job (a notebook / report session) outside the migrating program's process tree: it double-
# forks (re-parented), reads the catalog in a transaction it leaves open (idle in transaction, holding
# AccessShareLock), then works on something else for SECONDS before it commits (argv: dsn, seconds).
import os
import sys
import time

import psycopg2

dsn, seconds = sys.argv[1], float(sys.argv[2])
if os.fork():
    os._exit(0)
if os.fork():
    os._exit(0)
conn = psycopg2.connect(dsn)
cur = conn.cursor()
cur.execute("select physical_schema from catalogs where id = 1")
print("reader has read", cur.fetchone()[0], "pid", os.getpid(), flush=True)
sys.stdout.close()
os.close(1)
time.sleep(seconds)                 # idle in transaction
conn.commit()
conn.close()
