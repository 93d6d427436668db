import os
import sys

import psycopg

from pg import start_postgres


def insert_a_lot(cur, nrows: int, nchars: int, nvals: int) -> None:
    for _ in range(nrows):
        data = ["a" * nchars] * nvals
        cur.execute("insert into test (bigdata) values (%s)", (data,))


def run(pipeline: bool, attempts: int = 20, pause: float = 0.0) -> None:
    print("psycopg", psycopg.__version__, psycopg.pq.__impl__, file=sys.stderr)
    server, dsn = start_postgres()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("create table test (bigdata text[])")
        if pause:
            conn.execute("create or replace function slow() returns trigger language plpgsql as "
                         f"$$ begin perform pg_sleep({pause}); return new; end $$")
            conn.execute("create trigger slow before insert on test for each statement execute function slow()")
    print("ready", flush=True)
    with psycopg.connect(dsn) as conn, conn.cursor() as cur:
        for attempt in range(attempts):
            if pipeline:
                with conn.pipeline():
                    insert_a_lot(cur, 10, 1000, 1000)
            else:
                insert_a_lot(cur, 10, 1000, 1000)
            conn.commit()
        print("inserted", 10 * attempts, "rows", flush=True)
    server.terminate()
    server.wait()
