"""DuckDB 1.2.1 holds the GIL while its main thread spins in TaskExecutor::WorkOnTasks: binding
`from_parquet([...files...], union_by_name=True)` on a registered Python fsspec filesystem hands
one UnionByReaderTask per file to the scheduler threads, which need the GIL to call the
filesystem (Python) to open the file; the caller waits for them, spinning, with the GIL held
(https://github.com/duckdb/duckdb/issues/16501 "The main thread then just spins"; fixed in 1.2.2
by https://github.com/duckdb/duckdb/pull/16522, gil_scoped_release in from_parquet). The app (a
child of this program) runs the query; this program watches it through /proc.
Control: the same program under duckdb 1.2.2."""

from __future__ import annotations

import io
import os
import tempfile
import time
from typing import Any

import _ready

FILES = 32  # one task each: the more tasks, the surer a scheduler thread takes one


def app() -> None:
    import duckdb  # type: ignore[import-not-found,import-untyped,unused-ignore]
    import fsspec  # type: ignore[import-not-found,import-untyped,unused-ignore]

    fd, path = tempfile.mkstemp(suffix=".parquet")
    os.close(fd)
    duckdb.sql(f"COPY (FROM generate_series(50_000)) TO '{path}' (FORMAT parquet)")
    with open(path, "rb") as fh:
        data = fh.read()
    os.unlink(path)
    files = {f"f{i:02d}": data for i in range(FILES)}

    class MemFS(fsspec.AbstractFileSystem):  # type: ignore[misc]
        protocol = "memfs"

        @property
        def fsid(self) -> str:
            return "memfs"

        def ls(self, path: str, detail: bool = True, **kwargs: Any) -> list[Any]:
            names = [k for k in files if k.startswith(path)]
            if not detail:
                return names
            return [
                {"name": n, "size": len(files[n]), "type": "file", "created": 0, "islink": False}
                for n in names
            ]

        def modified(self, path: str) -> float:
            return time.time()

        def _open(self, path: str, **kwargs: Any) -> io.BytesIO:
            return io.BytesIO(files[path])

    conn = duckdb.connect(config={"threads": 4})  # 3 scheduler threads besides the caller
    conn.register_filesystem(MemFS())
    rows = conn.from_parquet([f"memfs://{k}" for k in files], union_by_name=True).fetchall()  # 1.2.1: spins
    assert len(rows) == FILES * 50_001, len(rows)


def main() -> None:
    if _ready.is_app() or _ready.control():
        app()
        return
    proc = _ready.app()
    # a thread wants the CPU all along AND another wakes ~200/s for the GIL: the cycle is in place
    spinning, woken = _ready.Spinning(proc.pid), _ready.Woken(proc.pid)
    _ready.settled(lambda: spinning() & woken(), "spinning with the GIL held", stable=5, interval=0.2)
    _ready.announce(proc.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
