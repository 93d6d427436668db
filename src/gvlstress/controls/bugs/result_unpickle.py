"""A multiprocessing.Pool whose result-handler thread died on a result it could not unpickle: a
task raised MyExc(Stuff()), whose __init__ reads stuff.two, so unpickling it in the parent calls
MyExc(2) and raises AttributeError inside `_handle_results`, which catches only OSError and
EOFError: the thread dies and the job's result is never set (CPython bpo-35311,
https://github.com/python/cpython/issues/79492, open; the reproducer of
https://github.com/python/cpython/issues/103061). The app (a child of this program) runs the
pool; this program watches it through /proc.

    PROGRAM spin    map() over 6 tasks: the 5 good results stay in the result pipe, which the
                    worker handler also polls: poll() returns at once, nobody reads, so that
                    thread spins (poll and waitpid in a loop) at a whole CPU
    PROGRAM idle    apply_async().get() of the bad task alone: the pipe is empty, nothing spins

Control (`PROGRAM control spin|idle`): the documented rule for exceptions, pass every constructor
argument to Exception.__init__ so the exception round-trips through pickle: the caller gets it."""

from __future__ import annotations

import multiprocessing as mp
import sys
import time

import _ready


class Stuff:
    def __init__(self) -> None:
        self.one, self.two = 1, 2


class MyExc(Exception):
    def __init__(self, stuff: Stuff) -> None:
        super().__init__(stuff.two)  # args == (2,): unpickling calls MyExc(2): AttributeError


class GoodExc(Exception):
    def __init__(self, stuff: Stuff) -> None:
        super().__init__(stuff)  # args == (stuff,): round-trips
        self.two = stuff.two


def task(i: int) -> int:
    if i == 0:
        raise (GoodExc if _ready.control() else MyExc)(Stuff())
    time.sleep(0.1)
    return i


def dead(app: int, spin: bool) -> bool:
    """The result handler is gone (main, worker handler, task handler left), both workers wait
    for a task, and the app's main thread waits for the result: in `idle` every thread waits."""
    workers = _ready.children(app)
    return (
        len(_ready.tids(app)) == 3
        and len(workers) == 2
        and all(_ready.waiting(k) for k in workers)
        and _ready.call_of(app) == _ready.FUTEX
        and (spin or _ready.waiting(app))
    )


def main() -> None:
    spin = "idle" not in sys.argv[1:]
    if _ready.is_app() or _ready.control():
        with mp.Pool(2) as pool:
            try:
                if spin:
                    pool.map(task, range(6))  # the app: never returns
                else:
                    pool.apply_async(task, (0,)).get()
            except GoodExc:
                return
        raise SystemExit("no exception")
    app = _ready.app("spin" if spin else "idle")
    _ready.settled(lambda: dead(app.pid, spin), "lost its result handler", stable=10)
    if spin:
        _ready.settled(_ready.Spinning(app.pid), "spun", stable=5, interval=0.2)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
