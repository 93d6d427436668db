"""The watch loop (`supervisor.watching`) on recorded worlds: a job that replays a `lookshapes`
world through `recorded.Recorded` (its clock moves only while the loop waits or the look sleeps),
so what the loop decides (when it looks, what it reports, what it does to the job) runs in the
fast tier without a process started. The live counterparts are in `test_watch.py` and
`test_watch_hardening.py` (the slow tier)."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import signal
import threading
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from rich.console import Console

from gvlstress.api import watch_tests
from gvlstress.api.watch import watch as watch_job
from gvlstress.look.pipeline import Seen
from gvlstress.model import HostFacts
from gvlstress.model.watch import HangAction, ProcCounters, Quiet, Stop, TreeReading, WatchResult
from gvlstress.reporters.console.watch import WatchView, print_watch
from gvlstress.supervisor.events import StopFlag
from gvlstress.supervisor.job import WatchPlan
from gvlstress.supervisor.stops import RESUMES
from gvlstress.supervisor.watching import Seam, Watcher
from lookshapes import MUTEX, READ, SLEEP, Proc, Th, World
from recorded import Recorded

P = 700
Q = 701
M1 = 0x7F0000002000
SLEEPER = Proc(P, (Th(P, SLEEP),))
"""The job's one thread sleeps (a timer): quiet, and healthy."""
SELF_LOCK = Proc(P, (Th(P, MUTEX.format(addr=M1), owner=P, owner_pid=P),))
"""Its main thread waits for a pthread mutex it holds itself: a hang."""
STOPPED = Proc(P, (Th(P, READ.format(fd=0), state="T", fd="/dev/pts/3"),))
"""Stopped by job control (state T in a read of its terminal)."""
SIGSTOPPED = Proc(P, (Th(P, SLEEP, state="T"),))
"""Stopped by a signal in its sleep (state T): a SIGSTOP."""
TTY = 0x8803
"""The device of the terminal the recorded job reads (/dev/pts/3)."""


@dataclass
class Job:
    """A started job that replays `host`'s world: it exits with `code` at `exits_at` seconds
    (None: never by itself), ends with -SIGTERM on the signal unless `stubborn`, and beats a
    heartbeat at the seconds in `beats`. What was done to it is logged in `done`."""

    host: Recorded
    pid: int = P
    exits_at: float | None = None
    code: int = 0
    stubborn: bool = False
    terminal: bool = False
    """The terminal the job reads is watch's to give."""
    beats: tuple[float, ...] = ()
    started: bool = True
    """Started by the watch (False: attached to, as the pytest plugin's watch of pytest)."""
    done: list[str] = field(default_factory=list)

    @property
    def ours(self) -> bool:
        return self.started

    def _t(self) -> float:
        return self.host.now - self.host.start

    def ended(self, timeout: float = 0.0, wake: StopFlag | None = None) -> int | None:
        if self.exits_at is not None and self._t() >= self.exits_at:
            return self.code
        if wake:
            return None
        wait = timeout if self.exits_at is None else min(timeout, self.exits_at - self._t())
        if wait > 0:
            self.host.sleep(wait)
        return self.code if self.exits_at is not None and self._t() >= self.exits_at else None

    def reading(self, pids: tuple[int, ...]) -> TreeReading:
        procs = []
        for pid in pids:
            s = self.host.sample(pid)
            if s is None:
                continue
            ts = s.threads
            cpu = sum(t.run_ns or 0 for t in ts) // 10_000_000
            procs.append(
                ProcCounters(
                    pid,
                    cpu,
                    sum(t.rchar or 0 for t in ts),
                    sum(t.wchar or 0 for t in ts),
                    sum(t.minflt or 0 for t in ts),
                    len(ts),
                )
            )
        beat = max((b for b in self.beats if b <= self._t()), default=None)
        return TreeReading(self.host.now, tuple(procs), heartbeat_mtime=beat)

    def signal(self, sig: int) -> None:
        self.done.append(signal.Signals(sig).name)
        if sig == signal.SIGTERM and not self.stubborn:
            self.exits_at, self.code = self._t(), -signal.SIGTERM

    def kill_tree(self) -> None:
        self.done.append("kill_tree")
        self.exits_at, self.code = self._t(), -signal.SIGKILL

    def resume(self) -> bool:
        self.done.append("resume")
        return self.terminal

    def terminal_device(self) -> int | None:
        return TTY if self.terminal else None

    def release_terminal(self) -> None:
        self.done.append("release_terminal")

    def close(self) -> None:
        pass


class Tree:
    """The world's tree as /proc shows it."""

    def __init__(self, host: Recorded) -> None:
        self.host = host

    def members(self, root: int, skip: Collection[int]) -> tuple[int, ...]:
        return (root, *(p for p in self.host.offspring(root, True) if p not in skip))

    def stopped(self, pids: tuple[int, ...]) -> tuple[Stop, ...]:
        """A thread stopped in a read of fd 0 was stopped by its terminal (`TTY`), any other stop
        by a signal."""
        out = []
        for p in pids:
            s = self.host.sample(p)
            if s is None or not any(t.state == "T" for t in s.threads):
                continue
            by_tty = any(t.state == "T" and t.syscall == 0 and t.args[:1] == (0,) for t in s.threads)
            out.append(Stop(p, TTY if by_tty else None))
        return tuple(out)

    def alive(self, pid: int) -> bool:
        return self.host.alive(pid)


@dataclass
class Told:
    """What the loop told its caller."""

    spells: list[Quiet] = field(default_factory=list)
    hangs: list[float] = field(default_factory=list)
    stops: list[Quiet] = field(default_factory=list)
    left: list[tuple[int, bool]] = field(default_factory=list)
    """A hang kept for a human: (pid, the job's group)."""
    readings: int = 0

    def reading(self, r: TreeReading, quiet_s: float, last: str) -> None:
        self.readings += 1

    def quiet(self, spell: Quiet, seen: Seen) -> None:
        self.spells.append(spell)

    def hang(self, seen: Seen, quiet_s: float) -> None:
        self.hangs.append(quiet_s)

    def stopped(self, spell: Quiet) -> None:
        self.stops.append(spell)

    def kept(self, pid: int, group: bool) -> None:
        self.left.append((pid, group))


def seam(job: Job) -> Seam:
    """A watch of `job` in its recorded world: nothing started, nothing to guard."""
    return Seam(
        start=lambda _: job,
        tree=Tree(job.host),
        host=job.host,
        guard=contextlib.nullcontext,
        facts=lambda: HostFacts(host="recorded"),
    )


def watch(
    proc: Proc,
    plan: WatchPlan,
    stop: StopFlag | None = None,
    *,
    host: Recorded | None = None,
    **job: object,
) -> tuple[Watcher, Job, Told, Recorded]:
    """One watch of `proc` as the job, to its end; the watcher, the job, what it told, the host."""
    host = host if host is not None else Recorded(World((proc,)))
    j = Job(host, **job)  # type: ignore[arg-type]
    told = Told()
    w = Watcher(plan, stop if stop is not None else StopFlag(), told, seam(j))
    w.run()
    return w, j, told, host


def test_a_quiet_healthy_tree_is_looked_at_once_then_judged_from_proc_alone_while_unchanged() -> None:
    w, job, told, host = watch(SLEEPER, WatchPlan(("job",), stall_s=2.0), exits_at=60.0, code=3)
    assert w.exit_code == 3
    assert told.hangs == []
    assert w.hang_seen is None
    assert job.done == []
    assert len(told.spells) >= 3
    first, *again = told.spells
    assert not first.hang
    assert first.verdict == "idle"
    assert "clock_nanosleep" in first.summary
    assert all("unchanged since the look" in s.summary and s.verdict == first.verdict for s in again)
    # the first look took stacks; the later ones read /proc only
    assert host.count("stacks") >= 1
    assert all(r.t < again[0].at_s for r in host.reads if r.what == "stacks")
    # looked at again after 2x, 4x, 8x the stall, then every 8x: not at every tick
    quiet = [s.quiet_s for s in told.spells]
    assert quiet[:4] == pytest.approx([2.0, 4.0, 8.0, 16.0], abs=1.01)
    assert all(b - a >= 1.0 for a, b in itertools.pairwise(quiet))


@pytest.mark.parametrize(
    ("action", "done", "ends"),
    [
        (HangAction.KILL, ["kill_tree"], True),
        (HangAction.SIGNAL, ["SIGQUIT"], False),
        (HangAction.KEEP, ["release_terminal"], False),
    ],
)
def test_a_hang_is_reported_once_and_the_on_hang_action_taken(
    action: HangAction, done: list[str], ends: bool
) -> None:
    w, job, told, _ = watch(
        SELF_LOCK, WatchPlan(("job",), stall_s=2.0, on_hang=action), exits_at=40.0, code=5
    )
    assert len(told.hangs) == 1
    assert told.hangs[0] >= 2.0
    assert w.hang_seen is not None
    assert any(j.hung for j in w.hang_seen.judged.values())
    assert job.done == done
    assert told.left == ([(P, True)] if action is HangAction.KEEP else [])
    assert w.action is not None
    # killed: the watch ends there (no exit code of the job's own); kept or signalled: it waits
    # for the job and reports nothing more
    assert w.exit_code == (None if ends else 5)
    assert told.spells == []


def test_a_wait_that_ended_during_the_look_is_stalled_not_a_hang(tmp_path: Path) -> None:
    plan = WatchPlan(("job",), stall_s=2.0, heartbeat=tmp_path / "beat", on_hang=HangAction.KILL)
    # the heartbeat beats once, mid-look (the look starts at 2 s of quiet, its pair takes 0.15 s)
    w, job, told, _ = watch(SELF_LOCK, plan, exits_at=3.5, beats=(0.0, 2.1))
    assert told.hangs == []
    assert job.done == []
    assert w.exit_code == 0
    assert [s.verdict for s in told.spells] == ["stalled"]
    assert "progress during the look" in told.spells[0].summary


def test_a_locked_process_that_exits_during_the_look_is_not_a_hang() -> None:
    host = Recorded(World((SELF_LOCK,)), gone={P: 2.1})
    w, job, told, _ = watch(SELF_LOCK, WatchPlan(("job",), stall_s=2.0), host=host, exits_at=3.5, code=0)
    assert told.hangs == []
    assert job.done == []
    assert w.exit_code == 0
    assert [(s.verdict, s.summary) for s in told.spells] == [
        ("gone", "the job exited while it was looked at")
    ]


def test_a_stopped_job_is_reported_once_when_the_terminal_is_not_ours_to_give() -> None:
    _w, job, told, _ = watch(STOPPED, WatchPlan(("job",), stall_s=30.0), exits_at=20.0)
    assert "resume" not in job.done  # the terminal that stopped it is not watch's
    assert len(told.stops) == 1
    assert told.stops[0].verdict == "stopped"
    assert f"pid {P} stopped by the job control of a terminal that is not watch's" in told.stops[0].summary
    assert f"kill -CONT -- -{P}" in told.stops[0].summary


def test_a_stopped_job_is_resumed_at_most_so_often_then_reported() -> None:
    _w, job, told, _ = watch(STOPPED, WatchPlan(("job",), stall_s=30.0), exits_at=20.0, terminal=True)
    assert [("resumed it" in s.summary) for s in told.stops] == [True] * RESUMES + [False]
    assert job.done.count("resume") == RESUMES
    assert "resumed too often: left stopped" in told.stops[-1].summary


@pytest.mark.parametrize("terminal", [True, False], ids=["watch's terminal", "no terminal"])
def test_a_signals_stop_of_a_process_below_the_job_is_never_continued_and_the_looks_go_on(
    terminal: bool,
) -> None:
    # GIVEN a job whose child is stopped by a signal (in its sleep: a SIGSTOP its parent sent),
    # whoever's terminal watch has
    world = World((Proc(P, (Th(P, SLEEP),)), Proc(Q, (Th(Q, SLEEP, state="T"),), parent=P)))
    _w, job, told, _ = watch(
        SLEEPER, WatchPlan(("job",), stall_s=2.0), exits_at=20.0, terminal=terminal, host=Recorded(world)
    )
    # THEN watch leaves it to whoever stopped it: never resumed, reported once, and looked at
    assert "resume" not in job.done
    assert len(told.stops) == 1
    assert (
        f"pid {Q} stopped by a signal (SIGSTOP, SIGTSTP...): left to whoever stopped it"
        in told.stops[0].summary
    )
    assert f"kill -CONT {Q}`" in told.stops[0].summary
    assert told.spells
    assert told.spells[0].verdict == "stopped"
    assert told.hangs == []


def test_a_signals_stop_of_the_jobs_own_process_is_resumed_as_fg_would_where_the_terminal_is_watchs() -> None:
    _w, job, told, _ = watch(SIGSTOPPED, WatchPlan(("job",), stall_s=30.0), exits_at=20.0, terminal=True)
    assert job.done.count("resume") == RESUMES
    assert "resumed it, as `fg` would" in told.stops[0].summary


def test_sigterm_to_watch_is_passed_to_the_job_and_ends_the_watch_with_its_code() -> None:
    stop = StopFlag()
    host = Recorded(World((SLEEPER,)), during=lambda t: stop.set(signal.SIGTERM) if t >= 5.0 else None)
    w, job, told, _ = watch(SLEEPER, WatchPlan(("job",), stall_s=2.0), stop, host=host)
    assert job.done == ["SIGTERM"]
    assert w.exit_code == -signal.SIGTERM
    assert told.spells  # what was seen before the signal is kept for the report


def test_a_job_that_ignores_the_passed_signal_has_its_tree_killed_after_the_grace() -> None:
    stop = StopFlag()
    host = Recorded(World((SLEEPER,)), during=lambda t: stop.set(signal.SIGTERM) if t >= 1.0 else None)
    w, job, _, _ = watch(SLEEPER, WatchPlan(("job",), stall_s=10.0), stop, host=host, stubborn=True)
    assert job.done == ["SIGTERM", "kill_tree"]
    assert w.exit_code is None


def test_the_jobs_exit_ends_the_watch_with_its_code() -> None:
    w, job, told, host = watch(SLEEPER, WatchPlan(("job",), stall_s=60.0), exits_at=4.0, code=7)
    assert w.exit_code == 7
    assert job.done == []
    assert told.spells == []
    assert told.hangs == []
    assert host.count("stacks") == 0  # never quiet long enough to be looked at


# the whole command's path (`api.watch.watch`): its reports and what the console says, on the
# same recorded worlds


def run(
    proc: Proc, plan: WatchPlan, tmp_path: Path, live: bool, **job: object
) -> tuple[WatchResult, Job, str]:
    """`gvlstress watch` of `proc` to its end: its result, the job, and what the console said."""
    j = Job(Recorded(World((proc,))), **job)  # type: ignore[arg-type]
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=False)
    view = WatchView(console, live, plan.stall_s)
    try:
        result = watch_job(plan, tmp_path, view=view, command=("gvlstress", "watch"), seam=seam(j))
    finally:
        view.close()
    print_watch(console, result)
    return result, j, out.getvalue()


@pytest.mark.parametrize("live", [False, True], ids=["plain lines", "live view"])
def test_a_hang_found_by_watch_is_written_before_the_job_is_killed(tmp_path: Path, live: bool) -> None:
    plan = WatchPlan(("job", "--x"), stall_s=2.0, on_hang=HangAction.KILL)
    result, job, said = run(SELF_LOCK, plan, tmp_path, live, exits_at=40.0)
    assert job.done == ["kill_tree"]
    assert result.hang is not None
    assert result.action == "killed the job's process tree"
    assert result.exit_code is None
    assert result.command == ("job", "--x")
    run_dir = Path(result.hang.run_dir)
    assert {"report.md", "watch.json", "inspect.json"} <= {p.name for p in run_dir.iterdir()}
    data = json.loads((run_dir / "watch.json").read_text())
    assert data["stall_s"] == 2.0
    assert "hang" in (run_dir / "report.md").read_text().lower()
    assert "gvlstress watch: hang:" in said
    assert "killed the job's process tree" in said
    assert f"report: {result.report_dir}/report.md" in said


def test_a_healthy_watch_reports_its_quiet_spells_and_the_jobs_exit(tmp_path: Path) -> None:
    result, _, said = run(SLEEPER, WatchPlan(("job",), stall_s=2.0), tmp_path, False, exits_at=20.0, code=3)
    assert result.hang is None
    assert result.exit_code == 3
    assert len(result.quiet) >= 2
    assert all(q.verdict == "idle" for q in result.quiet)
    assert "looked, healthy (idle)" in said
    assert "the job exited 3; no hang" in said
    report = (Path(result.report_dir) / "report.md").read_text()
    assert "idle" in report


def test_a_job_that_fails_at_once_leaves_no_report(tmp_path: Path) -> None:
    result, _, said = run(SLEEPER, WatchPlan(("job",), stall_s=2.0), tmp_path, False, exits_at=0.5, code=127)
    assert result.report_dir == ""
    assert list(tmp_path.iterdir()) == []
    assert "exited 127 at once" in said
    assert "no report written" in said


def test_a_hang_kept_for_a_human_says_how_to_end_it(tmp_path: Path) -> None:
    plan = WatchPlan(("job",), stall_s=2.0, on_hang=HangAction.KEEP)
    result, job, said = run(SELF_LOCK, plan, tmp_path, False, exits_at=10.0, code=-9)
    assert job.done == ["release_terminal"]
    assert result.hang is not None
    assert result.exit_code == -9
    assert f"kill -- -{P}" in said
    assert "left the job running" in said


def test_a_watch_stopped_by_sigterm_still_writes_its_report(tmp_path: Path) -> None:
    stop = StopFlag()
    host = Recorded(World((SLEEPER,)), during=lambda t: stop.set(signal.SIGTERM) if t >= 5.0 else None)
    j = Job(host)
    result = watch_job(WatchPlan(("job",), stall_s=2.0), tmp_path, stop, seam=seam(j))
    assert j.done == ["SIGTERM"]
    assert result.stopped_by == "SIGTERM"
    assert result.exit_code == -signal.SIGTERM
    assert result.quiet
    assert (Path(result.report_dir) / "report.md").is_file()
    assert json.loads((Path(result.report_dir) / "watch.json").read_text())["stopped_by"] == "SIGTERM"


# the pytest plugin's helper (`api.watch_tests`): pytest's messages in, a hang told at once


class Pipe(io.StringIO):
    """What the helper writes to pytest; `hung` is set once a hang's line was written."""

    def __init__(self) -> None:
        super().__init__()
        self.hung = threading.Event()

    def write(self, s: str) -> int:
        n = super().write(s)
        if '"hang"' in s:
            self.hung.set()
        return n


def messages(pipe: Pipe, nodeid: str, until_hang: bool) -> Iterator[str]:
    """pytest's side: a test begins, then ends (once its hang was told, with `until_hang`)."""
    yield json.dumps({"begin": nodeid, "stall": 2.0}) + "\n"
    if until_hang:
        assert pipe.hung.wait(60), "no hang told"
    yield json.dumps({"end": nodeid}) + "\n"


def test_the_plugins_watch_tells_pytest_of_a_hung_test_at_once_and_writes_its_report(tmp_path: Path) -> None:
    job = Job(Recorded(World((SELF_LOCK,))), started=False)
    out, err = Pipe(), io.StringIO()
    nodeid = "tests/test_x.py::test_stuck[a b]"
    code = watch_tests.serve(
        [str(os.getppid()), str(tmp_path)], messages(out, nodeid, True), watch_tests._Out(out, err), seam(job)
    )
    assert code == 0
    told = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [next(iter(m)) for m in told] == ["hang", "ended"]
    assert told[0]["hang"] == nodeid
    assert told[1] == {"ended": nodeid}
    assert Path(told[0]["report"]).name.endswith("-watch-test_stuck-a-b")
    assert (Path(told[0]["report"]) / "report.md").is_file()
    assert f"gvlstress watch: {nodeid}:" in told[0]["text"]
    assert f"gvlstress watch: {nodeid}:" in err.getvalue()
    assert job.done == ["release_terminal"]  # kept: the plugin's watch never acts on a test


def test_the_plugins_watch_of_a_test_that_ends_leaves_no_file(tmp_path: Path) -> None:
    job = Job(Recorded(World((SLEEPER,))), started=False)
    out, err = Pipe(), io.StringIO()
    code = watch_tests.serve(
        [str(os.getppid()), str(tmp_path)],
        messages(out, "t.py::ok", False),
        watch_tests._Out(out, err),
        seam(job),
    )
    assert code == 0
    assert [json.loads(line) for line in out.getvalue().splitlines()] == [{"ended": "t.py::ok"}]
    assert list(tmp_path.iterdir()) == []
    assert job.done == []


def test_the_plugins_helper_refuses_bad_arguments() -> None:
    err = io.StringIO()
    assert watch_tests.serve(["pid", "dir"], [], watch_tests._Out(io.StringIO(), err)) == 2
    assert "usage: python -m gvlstress.api.watch_tests PYTEST_PID REPORT_DIR" in err.getvalue()
