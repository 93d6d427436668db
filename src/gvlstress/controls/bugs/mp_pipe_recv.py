"""multiprocessing.Pipe(): the parent waits in Connection.recv() for a worker that died before
sending; EOFError comes only once every copy of the other end is closed (the multiprocessing
docs), and the parent itself still holds the worker's end, so recv() waits forever. Real
instances: dramatiq https://github.com/Bogdanp/dramatiq/pull/707 ("Close write_pipe after
forking"), pgcopydb https://github.com/dimitri/pgcopydb/pull/563. The app (a child of this
program) is the parent; this program watches it through /proc.
Control: the documented pattern, the parent closes its copy of the worker's end right after
start(): recv() raises EOFError when the worker dies."""

from __future__ import annotations

import multiprocessing as mp
import os
from multiprocessing.connection import Connection

import _ready


def worker(conn: Connection) -> None:
    os._exit(1)  # dies before sending: killed, or crashed in native code


def main() -> None:
    if _ready.is_app() or _ready.control():
        ctx = mp.get_context("fork")
        parent_conn, child_conn = ctx.Pipe()
        p = ctx.Process(target=worker, args=(child_conn,))
        p.start()
        if _ready.control():
            child_conn.close()  # the fix: drop the parent's copy of the worker's end
        try:
            parent_conn.recv()  # the app: waits forever
        except EOFError:
            p.join()
            return
        raise SystemExit("received from a dead worker")
    app = _ready.app()

    def waits() -> bool:
        kids = _ready.children(app.pid)
        return (
            _ready.call_of(app.pid) == _ready.NR["read"] and len(kids) == 1 and _ready.state(kids[0]) == "Z"
        )

    _ready.settled(waits, "recv() from a dead worker")
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
