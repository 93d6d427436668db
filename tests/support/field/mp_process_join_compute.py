"""Shape: two multiprocessing.Process children (fork) computing in Python; the parent in join()
(the parent's only thread waits on a child that is busy)."""

from __future__ import annotations

import multiprocessing as mp
import time

import _field


def work(seconds: float) -> None:
    until = time.time() + seconds  # from the child's start
    n = 0
    while time.time() < until:
        n = (n * 13 + 1) % 65_521


def main() -> None:
    procs = [mp.get_context("fork").Process(target=work, args=(_field.SECONDS + 0.5,)) for _ in range(2)]
    for p in procs:
        p.start()
    _field.settle(lambda: all(_field.state(p.pid or 0) == "R" for p in procs), "both children computing")
    _field.ready()
    for p in procs:
        p.join(_field.MAX_S + 10)
        assert p.exitcode == 0, p.exitcode


if __name__ == "__main__":
    main()
