"""DuckDB 0.6.1 runs DuckDBPyRelation.write_csv with the GIL held: the caller drives the pipeline
itself, polling the task queue (Executor::ExecuteTask), while the scheduler thread that took the
pandas scan needs the GIL to read an object column (ScanPandasObjectColumn); the caller never
lets go, so it spins and the worker waits for the GIL forever
(https://github.com/duckdb/duckdb/pull/6179, test_to_csv "gets stuck rather fast"; fixed in 0.7.0
by https://github.com/duckdb/duckdb/pull/6186, "execute all PyRelations through the shared
execute loop"). A race each write wins most times: the app (a child of this program) writes up
to 30 times; this program watches it through /proc.
Control: the same program under duckdb 0.7.0 (CPython 3.10, the wheels' last common version)."""

from __future__ import annotations

import datetime
import os
import tempfile

import _ready

ROWS, TRIES = 200_000, 30


def app() -> None:
    import duckdb  # type: ignore[import-not-found,import-untyped,unused-ignore]
    import pandas as pd  # type: ignore[import-not-found,import-untyped,unused-ignore]

    out = os.path.join(tempfile.mkdtemp(), "x.csv")
    times = [datetime.time(23, 1, 34, 234345)] * ROWS  # several scan tasks
    df = pd.DataFrame({"t": pd.Series(times, dtype="object")})  # object column: the scan needs the GIL
    con = duckdb.connect(config={"threads": 8})  # 7 scheduler threads: one takes a scan task
    rel = con.from_df(df)
    for _ in range(TRIES):
        rel.write_csv(out)  # 0.6.1: spins here with the GIL held
        (n,) = con.execute(f"SELECT count(*) FROM read_csv_auto('{out}')").fetchone()
        assert n == ROWS, n
    os.unlink(out)
    os.rmdir(os.path.dirname(out))


def main() -> None:
    if _ready.is_app() or _ready.control():
        app()
        return
    proc = _ready.app()
    # a thread wants the CPU all along AND another wakes ~200/s for the GIL: the cycle is in place
    spinning, woken = _ready.Spinning(proc.pid), _ready.Woken(proc.pid)
    _ready.settled(
        lambda: spinning() & woken(), "spinning with the GIL held", timeout=60, stable=5, interval=0.2
    )
    _ready.announce(proc.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
