"""``--target program -o path=SCRIPT [-o args="A B"]``: any Python program as a target.

Each worker runs the program once, in its main thread, as ``python SCRIPT A B`` would (as
``__main__``, its directory first on ``sys.path``, ``sys.argv`` set): the whole run of it is one
batch. So a script that hangs now and then (a test, a training step, a bug's reproducer) is
launched in waves by ``run``, caught at the stall and judged by the same look as ``inspect --tree``
and ``watch``: its child processes, pools and peers included. A program that exits with a
non-zero status is an error of that worker, with the status as its message.

Worker half (`open_worker`) is stdlib-only, as every worker half.
"""

from __future__ import annotations

import os
import runpy
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gvlstress.scenario import Scenario
    from gvlstress.targets.base import TargetPlan

ENTRY = "gvlstress.targets.program:open_worker"


class ProgramExit(RuntimeError):
    """The program ended with a non-zero exit status (`sys.exit(3)`, `SystemExit("why")`)."""


class _Once:
    """The worker's session: the first batch runs the program, the second ends the share."""

    def __init__(self, path: str, args: tuple[str, ...]) -> None:
        self.path, self.args, self.done = path, args, False

    def next_batch(self) -> object:
        if self.done:
            raise StopIteration
        self.done = True
        argv, path0 = sys.argv, sys.path[0] if sys.path else None
        sys.argv = [self.path, *self.args]
        sys.path.insert(0, os.path.dirname(os.path.abspath(self.path)))
        try:
            runpy.run_path(self.path, run_name="__main__")
        except SystemExit as exc:
            if exc.code not in (None, 0):
                raise ProgramExit(f"{self.path} exited with {exc.code!r}") from None
        finally:
            sys.argv = argv
            if sys.path and sys.path[0] != path0:
                del sys.path[0]
        return None

    def describe(self) -> dict[str, Any]:
        return {"program": self.path, "args": list(self.args)}


def open_worker(options: dict[str, Any], seed: int, slot: int) -> _Once:
    return _Once(str(options["path"]), tuple(options.get("args", ())))


class ProgramTarget:
    """Supervisor half: the program must exist; nothing of it runs here."""

    name = "program"

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        from gvlstress.errors import UsageError
        from gvlstress.targets.base import TargetPlan

        opts = dict(scenario.options)
        unknown = sorted(set(opts) - {"path", "args"})
        if unknown:
            raise UsageError(
                f"--target program: unknown option(s) {', '.join(unknown)}",
                hint='it takes -o path=SCRIPT and -o args="A B" (the script\'s arguments)',
            )
        if "path" not in opts or not str(opts["path"]).strip():
            raise UsageError(
                "--target program needs -o path=SCRIPT", hint="the Python file to run in each worker"
            )
        path = Path(str(opts["path"])).expanduser()
        if not path.is_file():
            raise UsageError(
                f"--target program: {path} is not a file", hint="pass -o path=SCRIPT, a Python file"
            )
        raw = opts.get("args", "")
        try:
            args = tuple(shlex.split(raw)) if isinstance(raw, str) else tuple(str(a) for a in raw)
        except ValueError as exc:
            raise UsageError(
                f"--target program: -o args={raw!r}: {exc}", hint="quote as a shell would"
            ) from None
        if scenario.fault != "none":
            raise UsageError("--target program has no fault modes", hint="faults are for --target native")
        return TargetPlan(
            entry=ENTRY,
            options={"path": str(path.resolve()), "args": list(args)},
            facts={"contract": "program", "program": str(path.resolve()), "args": list(args)},
        )
