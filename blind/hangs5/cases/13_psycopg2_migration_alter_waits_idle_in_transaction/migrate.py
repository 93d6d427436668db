import os
import signal
import subprocess
import sys

import psycopg2

from pg import start_postgres


def run(reader_seconds, lock_timeout):
    server, dsn = start_postgres()
    conn = psycopg2.connect(dsn)
    conn.autocommit = True
    conn.cursor().execute("create table catalogs(id int primary key, physical_schema text);"
                          "insert into catalogs values (1, 'geo_1')")
    starter = subprocess.Popen([sys.executable, "reader.py", dsn, str(reader_seconds)], stdout=subprocess.PIPE, text=True)
    line = starter.stdout.readline().strip()
    print(line, flush=True)
    reader_pid = int(line.split()[-1])
    starter.wait()
    conn.autocommit = False
    cur = conn.cursor()
    if lock_timeout:
        cur.execute(f"set lock_timeout = '{lock_timeout}'")
    print("ready", flush=True)
    try:
        cur.execute("alter table catalogs add column if not exists provisioning_checklist jsonb")
        conn.commit()
        print("migration applied", flush=True)
    except psycopg2.errors.LockNotAvailable:
        conn.rollback()
        print("migration skipped: lock not available, will retry at the next deploy", flush=True)
    conn.close()
    try:
        os.kill(reader_pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    server.terminate()
    server.wait(timeout=60)
