"""What ``inspect`` and ``watch`` report of a look, from a recorded world (`recorded.Recorded`):
the look explained per process (`api.inspecting.described`), written as inspect.json, report.md
and raw views, and printed to the terminal; no process is started."""

from __future__ import annotations

import json
from pathlib import Path

import psutil
import pytest
from rich.console import Console

from gvlstress.api.inspecting import commands, described, write_inspected
from gvlstress.look.pipeline import look_and_judge
from gvlstress.look.windows import RUN_WINDOW_S
from gvlstress.model import HostFacts, InspectResult, Verdict
from gvlstress.model.look import Subject
from gvlstress.model.wiring import OpenFile
from gvlstress.reporters.console import print_inspect
from gvlstress.system.redact import redact_argv
from lookshapes import LOCK, MUTEX, READ, SLEEP, Proc, Th, World, held
from recorded import Recorded

P = 500
M1 = 0x7F0000001000
PIPE = "pipe:[77]"
SELF_LOCK = Proc(
    P, (Th(P, MUTEX.format(addr=M1), owner=P, owner_pid=P, native=("__lll_lock_wait@libc.so.6",)),)
)
READER = Proc(P, (Th(P, READ.format(fd=0), fd=PIPE, py=(("main", "/srv/job.py", 3),)),))
WRITER = Proc(600, (Th(600, SLEEP),), files=(OpenFile(1, PIPE, "w", 0),))
SPIN = Proc(P, (Th(P, None, state="R", cpu_ms=2000, py=(("spin", "/srv/job.py", 9),)),))
PARKED = Proc(P, (Th(P, LOCK.format(addr=M1), py=(("wait", "/usr/lib/python3.11/threading.py", 320),)),))


def report(
    world: World, pids: tuple[int, ...], tmp_path: Path, *, watch: bool = False
) -> tuple[InspectResult, str]:
    """Look at `pids` in `world` as inspect does (as watch does, with a progress signal), and
    write and print what it reports."""
    host = Recorded(world)
    subjects = [Subject(p, p if watch else None) for p in pids]
    seen = look_and_judge(subjects, RUN_WINDOW_S, tree=True, adaptive=True, host=host)
    names = {p: f"python job-{p}.py" for p in [*pids, *(p for p in seen.judged if p not in pids)]}
    result = InspectResult(
        described(seen, names, "looked at"),
        HostFacts(),
        "2026-11-28T00:00:00+00:00",
        ("gvlstress", "inspect", str(pids[0])),
        str(tmp_path),
        by="watch" if watch else "inspect",
    )
    write_inspected(result, tmp_path)
    console = Console(record=True, width=200)
    print_inspect(console, result)
    return result, console.export_text()


@pytest.mark.parametrize(
    ("world", "watch", "verdict", "says"),
    [
        pytest.param(World((SELF_LOCK,)), False, Verdict.DEADLOCK, "holds itself", id="a self-lock"),
        pytest.param(
            World((READER, WRITER), holders=held(PIPE, (600, 1, "w"))),
            False,
            Verdict.IDLE,
            "pid 600",
            id="a read of a pipe a sleeper holds",
        ),
        pytest.param(World((SPIN,)), False, Verdict.BUSY, "CPU", id="a spin, no signal"),
        pytest.param(World((SPIN,)), True, Verdict.BUSY, "a spin", id="a spin no rule named, under watch"),
        pytest.param(World((PARKED,)), True, Verdict.DEADLOCK, "futex", id="a parked lock wait under watch"),
    ],
)
def test_a_recorded_look_is_reported_as_inspect_and_watch_report_a_live_one(
    world: World, watch: bool, verdict: Verdict, says: str, tmp_path: Path
) -> None:
    result, printed = report(world, (P,), tmp_path, watch=watch)
    root = result.processes[0]
    assert root.pid == P
    assert root.cmdline == f"python job-{P}.py"
    assert root.diagnosis.verdict is verdict
    assert root.activity is not None
    page = (tmp_path / "report.md").read_text()
    assert f"pid {P}" in printed
    assert says in page + printed
    saved = json.loads((tmp_path / "inspect.json").read_text())
    assert saved["processes"][0]["pid"] == P
    assert (tmp_path / "processes" / f"pid{P}" / "proc.json").exists()
    assert result.looks_deadlocked is (verdict in (Verdict.DEADLOCK, Verdict.LIVELOCK))


def test_the_relatives_a_look_took_in_are_reported_after_the_root(tmp_path: Path) -> None:
    result, _ = report(World((READER, WRITER), holders=held(PIPE, (600, 1, "w"))), (P,), tmp_path)
    assert [p.pid for p in result.processes] == [P, 600]


def test_a_command_line_is_read_redacted() -> None:
    me = psutil.Process()
    assert commands([me]) == {me.pid: " ".join(redact_argv(me.cmdline()))}
