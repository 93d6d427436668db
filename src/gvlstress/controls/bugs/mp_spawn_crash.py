"""multiprocessing's spawn start method: Process.start() writes the pickled process object to the
child before it closes its own copy of the child's read end, so when the child dies before
reading it all (here: the app's top level has no `if __name__ == "__main__":` guard, the child
re-runs start() while bootstrapping and exits with RuntimeError; the argument is 1 MiB, more than
a pipe holds), the write blocks forever: the pipe still has a reader, the writer itself
(CPython gh-118981, https://github.com/python/cpython/issues/118981; fixed by
https://github.com/python/cpython/pull/118982 in 3.13.8 and 3.14). The app is this program run
as `PROGRAM _app` (its spawned child runs it again); this program watches it through /proc.
Control: the app with Popen._launch as gh-118982 has it (the child's ends closed right after the
spawn): the write fails at once with BrokenPipeError."""

from __future__ import annotations

import io
import multiprocessing as mp
import os
import sys
from multiprocessing import popen_spawn_posix, reduction, resource_tracker, spawn, util
from multiprocessing.context import set_spawning_popen
from typing import Any

import _ready


def work(blob: bytes) -> int:
    return len(blob)


def fixed_launch(self: Any, process_obj: Any) -> None:
    """popen_spawn_posix.Popen._launch after gh-118982: the child's pipe ends are closed right
    after the spawn, before the process object is written."""
    tracker_fd = resource_tracker.getfd()
    self._fds.append(tracker_fd)
    prep_data = spawn.get_preparation_data(process_obj._name)
    fp = io.BytesIO()
    set_spawning_popen(self)
    try:
        reduction.dump(prep_data, fp)
        reduction.dump(process_obj, fp)
    finally:
        set_spawning_popen(None)
    parent_r = child_w = child_r = parent_w = None
    try:
        parent_r, child_w = os.pipe()
        child_r, parent_w = os.pipe()
        cmd = spawn.get_command_line(tracker_fd=tracker_fd, pipe_handle=child_r)
        self._fds.extend([child_r, child_w])
        self.pid = util.spawnv_passfds(spawn.get_executable(), cmd, self._fds)  # type: ignore[arg-type]
        os.close(child_r)
        child_r = None
        os.close(child_w)
        child_w = None
        self.sentinel = parent_r
        with open(parent_w, "wb", closefd=False) as f:
            f.write(fp.getbuffer())
    finally:
        fds_to_close = [fd for fd in (parent_r, parent_w) if fd is not None]
        self.finalizer = util.Finalize(self, util.close_fds, fds_to_close)  # type: ignore[attr-defined]
        for fd in (child_r, child_w):
            if fd is not None:
                os.close(fd)


def app() -> None:
    """The app's top level (run again, unguarded, by the spawned child: the child dies here)."""
    if "fixed" in sys.argv[2:] and mp.parent_process() is None:
        popen_spawn_posix.Popen._launch = fixed_launch  # type: ignore[attr-defined]
    p = mp.get_context("spawn").Process(target=work, args=(b"x" * (1 << 20),))
    try:
        p.start()  # the app: blocks writing to a child that has died
    except BrokenPipeError:
        sys.exit(0)
    p.join()
    sys.exit(p.exitcode)


def fixed_here() -> bool:
    return sys.version_info >= (3, 14) or (3, 13, 8) <= sys.version_info < (3, 14)


def main() -> None:
    if fixed_here():
        print(f"CPython {sys.version.split()[0]} has the fix (gh-118982)", file=sys.stderr)  # noqa: T201
        sys.exit(_ready.NO_RUNTIME)
    if _ready.control():
        fixed = _ready.app("fixed")
        sys.exit(fixed.wait(timeout=60))
    proc = _ready.app()

    def blocked() -> bool:
        kids = _ready.children(proc.pid)  # the resource tracker (alive) and the dead child
        return _ready.call_of(proc.pid) == _ready.NR["write"] and any(_ready.state(k) == "Z" for k in kids)

    _ready.settled(blocked, "start() blocked writing to a dead child")
    _ready.announce(proc.pid)
    _ready.forever()


if _ready.is_app():  # no `if __name__ == "__main__":` guard: the spawned child runs this too
    app()
elif __name__ == "__main__":
    main()
