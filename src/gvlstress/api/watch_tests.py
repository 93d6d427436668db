"""The pytest plugin's watchdog (``--gvlstress-watch SECONDS``): `gvlstress watch` on each test.

One helper process per pytest process (``python -m gvlstress.api.watch_tests PYTEST_PID
REPORT_DIR``), told over its stdin when a test begins and ends; while one runs, it watches
pytest's process tree with `watch`'s own loop (/proc counters, `judge.progress`) and, after the
stall, judges it with the same look (``look_and_judge``, as ``watch`` and ``inspect --tree``). A
hang is written as ``watch`` writes it (report.md, watch.json, inspect.json, processes/) and told
back; a test that stays healthy leaves no file.

Why a process and not a thread in pytest: a thread needs pytest's GIL to run, so a test that
hangs holding it (a native call that never releases it: the very hangs gvlstress is for) would
wedge its own watchdog; and the watcher's reads of /proc would count as the watched process's
own I/O. The helper is left out of the tree it watches (and its look), and pytest declares it
its ptracer (``PR_SET_PTRACER``), so under Yama's ``ptrace_scope`` 1 its stack tools may attach to
pytest, though not to the processes a test starts (those are judged from /proc alone unless
gvlstress runs as root).

Protocol, one JSON object a line. In: ``{"begin": NODEID, "stall": SECONDS}``, ``{"end":
NODEID}``; the end of stdin is pytest's end. Out: ``{"hang": NODEID, "report": DIR, "text": ...}``
the moment a hang is reported, ``{"error": NODEID, "text": ...}`` when a watch failed,
``{"ended": NODEID}`` once a test's watch is over. The hang's line also goes to stderr (pytest's
terminal) at once: a pytest wedged by the hang can no longer print anything.
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
import sys
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from gvlstress.api.watch import watch
from gvlstress.errors import GvlstressError
from gvlstress.judge.across import Judgement
from gvlstress.model import InspectResult
from gvlstress.model.watch import HangAction, Quiet, TreeReading
from gvlstress.reporters.console.watch import watched_test_lines
from gvlstress.supervisor.events import StopFlag
from gvlstress.supervisor.job import WatchPlan, restricted_ptrace
from gvlstress.supervisor.watching import LIVE_SEAM, Seam

END_S = 30.0
"""How long a test's watch may take to end once the test has (a look in progress finishes)."""


class _Out:
    """Lines to pytest (stdout, one writer at a time) and to its terminal (stderr)."""

    def __init__(self, out: IO[str], err: IO[str]) -> None:
        self.out, self.err = out, err
        self.lock = threading.Lock()

    def send(self, **message: Any) -> None:
        with self.lock, contextlib.suppress(OSError, ValueError):
            self.out.write(json.dumps(message) + "\n")
            self.out.flush()

    def say(self, text: str) -> None:
        with self.lock, contextlib.suppress(OSError, ValueError):
            self.err.write(text + "\n")
            self.err.flush()


class _Tell:
    """What the watch loop tells, passed on: a hang at once (its report is on disk by then)."""

    def __init__(self, nodeid: str, out: _Out) -> None:
        self.nodeid, self.out = nodeid, out

    def reading(self, r: TreeReading, quiet_s: float, last: str) -> None:
        pass

    def quiet(self, spell: Quiet) -> None:
        pass

    def stopped(self, spell: Quiet) -> None:
        self.out.say(f"\ngvlstress watch: {self.nodeid}: {spell.summary}")

    def kept(self, pid: int, group: bool) -> None:
        pass  # the plugin's watch never acts on a test

    def hang(self, judged: Mapping[int, Judgement], quiet_s: float, found: InspectResult) -> None:
        lines = watched_test_lines(self.nodeid, found, quiet_s)
        self.out.send(hang=self.nodeid, report=found.run_dir, text="\n".join(lines))
        self.out.say(f"\n{lines[0]}; {lines[-1].strip()}")  # on a line of its own


def blind() -> tuple[str, ...]:
    """What the plugin's watch cannot see on this host, said in every hang report."""
    if not restricted_ptrace():
        return ()
    return (
        "stacks of the processes a test starts: this host allows ptrace of descendants only (Yama "
        "ptrace_scope 1); pytest declared this watch its ptracer, so pytest's own threads are read, "
        "but a test's child processes are judged from /proc alone (run as root, or ptrace_scope 0)",
    )


def _slug(nodeid: str) -> str:
    """The run directory's name: the test's own (the file and class are in the report)."""
    return "watch-" + re.sub(r"[^A-Za-z0-9._-]+", "-", nodeid.rsplit("::", 1)[-1]).strip("-")


class _Test:
    """One test's watch, in a thread of its own."""

    def __init__(
        self, pid: int, nodeid: str, stall: float, report_dir: Path, out: _Out, seam: Seam = LIVE_SEAM
    ) -> None:
        self.nodeid, self.out, self.seam = nodeid, out, seam
        self.stop = StopFlag()
        plan = WatchPlan(pid=pid, stall_s=stall, on_hang=HangAction.KEEP)
        self.thread = threading.Thread(
            target=self._run, args=(plan, report_dir), name="gvlstress-test-watch", daemon=True
        )
        self.thread.start()

    def _run(self, plan: WatchPlan, report_dir: Path) -> None:
        try:
            watch(
                plan,
                report_dir,
                self.stop,
                _Tell(self.nodeid, self.out),
                command=("pytest", self.nodeid),
                name=_slug(self.nodeid),
                hangs_only=True,
                blind=blind(),
                seam=self.seam,
            )
        except GvlstressError as exc:
            self.out.send(error=self.nodeid, text=str(exc))
        except Exception as exc:  # a bug here must not end the watch of the tests after it
            self.out.send(error=self.nodeid, text=f"internal error: {type(exc).__name__}: {exc}")

    def end(self) -> None:
        """The test is over: its watch stops now (a look in progress ends its tools)."""
        self.stop.set(0)
        self.thread.join(END_S)
        self.stop.close()


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is pytest's to handle; it ends us
    return serve(argv, sys.stdin, _Out(sys.stdout, sys.stderr))


def serve(argv: list[str], lines: Iterable[str], out: _Out, seam: Seam = LIVE_SEAM) -> int:
    """The helper's work: a watch of each test `lines` (pytest's messages) begins, told on `out`.
    `seam`: what the watches read (this machine; a test's recorded world)."""
    if len(argv) != 2 or not argv[0].isdigit():
        out.say("usage: python -m gvlstress.api.watch_tests PYTEST_PID REPORT_DIR")
        return 2
    pid, report_dir = int(argv[0]), Path(argv[1])
    current: _Test | None = None
    with seam.guard():  # one for the session: the looks' tools never outlive this helper
        for raw in lines:  # until pytest closes it (or dies)
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if current is not None:  # a test ends where it says so, or where the next begins
                current.end()
                current = None
            if "begin" in message:
                current = _Test(pid, str(message["begin"]), float(message["stall"]), report_dir, out, seam)
            elif "end" in message:
                out.send(ended=str(message["end"]))
        if current is not None:
            current.end()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
