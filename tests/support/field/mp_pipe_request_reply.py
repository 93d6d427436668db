"""Shape: a parent in multiprocessing Pipe.recv() while its child (spawn) computes the reply for
5 s (a model server answering a slow request): the parent's read waits on a busy live peer."""

from __future__ import annotations

import multiprocessing as mp
import time
from typing import Any

import _field


def serve(conn: Any) -> None:
    while (request := conn.recv()) is not None:
        until = time.time() + request
        n = 0
        while time.time() < until:  # the slow answer
            n = (n * 7 + 5) % 10_007
        conn.send(n)


def main() -> None:
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    server = ctx.Process(target=serve, args=(child,))
    server.start()
    parent.send(0.0)
    parent.recv()  # the server is up
    parent.send(min(5.0, _field.SECONDS))
    _field.settle(lambda: _field.state(server.pid or 0) == "R", "server computing")
    _field.ready()
    parent.recv()
    while not _field.over():
        parent.send(min(5.0, _field.left()))
        parent.recv()
    parent.send(None)
    server.join(30)


if __name__ == "__main__":
    main()
