"""Shape: duckdb aggregate and join queries on 4 threads over 2M generated rows, over and over:
duckdb's own thread pool computes, the main thread waits inside execute()."""

from __future__ import annotations

import _field
import duckdb


def main() -> None:
    con = duckdb.connect()
    con.execute("set threads to 4")
    con.execute("create table t as select i % 1000 as k, random() as v from range(2000000) r(i)")
    con.execute("create table d as select i as k, 'name' || i as name from range(1000) r(i)")
    query = (
        "select d.name, avg(t.v), count(*) from t join d using (k) group by d.name order by 2 desc limit 10"
    )
    assert len(con.execute(query).fetchall()) == 10
    _field.ready()
    while not _field.over():
        con.execute(query).fetchall()
    con.close()


if __name__ == "__main__":
    main()
