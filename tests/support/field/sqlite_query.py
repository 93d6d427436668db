"""Shape: sqlite3 aggregate queries over a 1M-row table in a file (an analytics step): the main
thread inside SQLite's C code, the GIL released."""

from __future__ import annotations

import random
import sqlite3
import tempfile
from pathlib import Path

import _field


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        db = sqlite3.connect(Path(d) / "events.db")
        db.execute("create table events (user integer, kind text, value real)")
        rng = random.Random(9)
        rows = ((rng.randrange(5000), rng.choice("abcde"), rng.random()) for _ in range(1_000_000))
        db.executemany("insert into events values (?, ?, ?)", rows)
        db.commit()
        query = (
            "select kind, count(*), avg(value), count(distinct user) from events "
            "where value > ? group by kind order by kind"
        )
        assert len(db.execute(query, (0.5,)).fetchall()) == 5
        _field.ready()
        while not _field.over():
            db.execute(query, (rng.random(),)).fetchall()
        db.close()


if __name__ == "__main__":
    main()
