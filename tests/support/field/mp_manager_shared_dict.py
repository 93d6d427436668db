"""Shape: a multiprocessing Manager (its server process) and two worker Processes (fork) that
update a managed dict every 2 s and sleep between; the parent in join(). Every wait ends on a
live process: the workers' sleeps, the server's accept and reads."""

from __future__ import annotations

import multiprocessing as mp
import time
from typing import Any

import _field


def work(shared: Any, key: str, seconds: float) -> None:
    until = time.time() + seconds
    while time.time() < until:
        shared[key] = shared.get(key, 0) + 1
        time.sleep(min(2.0, max(0.0, until - time.time())))  # the rest of the step


def main() -> None:
    ctx = mp.get_context("fork")
    with ctx.Manager() as manager:
        shared = manager.dict()
        procs = [ctx.Process(target=work, args=(shared, f"w{i}", _field.SECONDS + 0.5)) for i in range(2)]
        for p in procs:
            p.start()
        _field.settle(lambda: len(shared) == 2, "both workers updating")
        _field.ready()
        for p in procs:
            p.join(_field.MAX_S + 10)
            assert p.exitcode == 0
        assert sum(shared.values()) >= 2


if __name__ == "__main__":
    main()
