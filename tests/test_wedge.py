"""The hang around the loader: a worker killed while sending its result wedges CPython's
ProcessPoolExecutor (genvarloader #263's whole signature). The rules that name it, tested as
tables; then the real thing, provoked (--kill-worker sending, --memory-limit) on real workers."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

import builders
from conftest import cli_run, load_run, run_cli, wait_for, workers_of
from gvlstress.judge import names
from gvlstress.judge.outcome import (
    WEDGE_S,
    EndReason,
    SlotFacts,
    WaveEnd,
    Wedge,
    unfinished,
    wedge_diagnosis,
    wedged,
)
from gvlstress.judge.symptoms import beside
from gvlstress.model import (
    Diagnosis,
    ProbeFinding,
    ProbeKind,
    ThreadDelta,
    Verdict,
    Wait,
    WaitKind,
    WorkerOutcome,
)
from gvlstress.model import evidence as ev
from gvlstress.probes.procfs import zombie_status
from gvlstress.supervisor.provoke import killers
from gvlstress.targets.gvl_support import ISSUE_263

SIGKILLED = signal.SIGKILL  # a wait status: killed by signal 9


@pytest.mark.parametrize(
    ("dead", "pending", "age", "broken", "found"),
    [
        ({}, {7}, 5.0, False, None),  # nobody dead
        ({7: SIGKILLED}, {7}, WEDGE_S, False, 7),  # dead, unreaped, its future pending: wedged
        ({7: SIGKILLED}, {7}, WEDGE_S / 2, False, None),  # not yet: a healthy executor reaps in ms
        ({7: SIGKILLED}, {8}, 5.0, False, None),  # its task is done: nothing waits on it
        ({7: SIGKILLED}, {7}, 5.0, True, None),  # the executor noticed (BrokenProcessPool)
    ],
)
def test_a_dead_worker_wedges_the_executor_only_while_its_future_waits(
    dead: dict[int, int], pending: set[int], age: float, broken: bool, found: int | None
) -> None:
    assert wedged(dead, {7: 100.0}, pending, 100.0 + age, broken) == found


@pytest.mark.parametrize(
    ("oom", "sigkilled", "by_us", "expect"),
    [
        (0, [5], None, {}),  # a SIGKILL nobody here sent, no OOM counted: unknown
        (1, [5], None, {5: "killed by the kernel's OOM killer"}),
        (1, [5, 6], None, {5: "most likely killed by the kernel's OOM", 6: "most likely"}),
        (1, [5], 5, {5: "killed by gvlstress --kill-worker"}),  # ours first, never the OOM killer's
        (0, [], 5, {5: "killed by gvlstress --kill-worker"}),
    ],
)
def test_a_crash_is_named_after_the_killer_the_harness_knows(
    oom: int, sigkilled: list[int], by_us: int | None, expect: dict[int, str]
) -> None:
    class Ours:
        def __init__(self, pid: int) -> None:
            self.when = "sending"
            self.killed = {"pid": pid, "how": "blocked writing its result to the result pipe"}

    got = killers(Ours(by_us) if by_us else None, oom, sigkilled)  # type: ignore[arg-type]
    assert set(got) == set(expect)
    for pid, says in expect.items():
        assert got[pid].startswith(says), got[pid]


WEDGE = Wedge(
    pid=7,
    status=SIGKILLED,
    killed_by="killed by the kernel's OOM killer (the wave's memory limit; 1 OOM kill(s))",
    manager_stack=("recv (connection.py:250)", "_recv (connection.py:395)"),
    batches=20,
    sending=True,
)


@pytest.mark.parametrize(
    ("pid", "finished_share", "verdict", "says"),
    [
        (7, True, Verdict.CRASH, "SIGKILL while sending its result"),  # the one that died
        (8, True, Verdict.DEADLOCK, "the result queue's lock is held by worker 7"),  # blocked behind it
        (9, False, Verdict.CANCELLED, "the executor wedged"),  # still working: not a hang of its own
    ],
)
def test_after_a_wedge_the_dead_worker_crashed_and_those_behind_it_deadlocked(
    pid: int, finished_share: bool, verdict: Verdict, says: str
) -> None:
    facts = SlotFacts(pid, 20, 3.0, 2.0, False, finished_share=finished_share)
    ending = unfinished(facts, WaveEnd(EndReason.WEDGE, wedge=WEDGE))
    assert ending.verdict is verdict
    assert says in (ending.detail or "")
    # every worker of a wedged executor is named after the wedge: one still at work too (its
    # future stays pending behind it), which a loaded host catches more often
    d = wedge_diagnosis(verdict, facts, WEDGE)
    assert d.pattern == names.EXECUTOR_WEDGED
    assert "by the OOM killer" in d.summary
    assert any(isinstance(f, ev.ManagerStack) and "_recv (connection.py:395)" in f.frames for f in d.facts)
    assert (ev.StillAtWork() in d.facts) is (verdict is Verdict.CANCELLED)


@pytest.mark.slow
def test_zombie_status_reads_a_dead_unreaped_child_from_proc() -> None:
    # GIVEN a child that exits with code 3 and is not reaped yet
    pid = os.fork()
    if pid == 0:
        os._exit(3)
    try:
        # THEN /proc keeps its wait status (exit code in the high byte) until it is reaped
        status = wait_for(lambda: zombie_status(pid), 10, "the child to become a zombie")
        assert os.WIFEXITED(status)
        assert os.WEXITSTATUS(status) == 3
        assert zombie_status(os.getpid()) is None  # a live process is no zombie
    finally:
        os.waitpid(pid, 0)
    assert zombie_status(pid) is None  # reaped: gone


THREE_WORKERS = ["run", "--workers", "3", "--rayon", "2", "--iterations", "8"]


def _no_process_left(run: dict[str, Any]) -> None:
    for w in workers_of(run):
        assert w["pid"] is None or not Path(f"/proc/{w['pid']}").exists(), w


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_worker_killed_while_sending_wedges_the_executor_and_is_named(report_dir: Path) -> None:
    # GIVEN tasks that return 64 MiB (more than a pipe holds) and a worker SIGKILLed mid-send
    run = cli_run(
        [*THREE_WORKERS, "--waves", "2", "--result-bytes", "64M", "--kill-worker", "sending"],
        1,
        report_dir,
    )
    # THEN every wave is a deadlock found by the wedge rule within seconds, not the timeout
    for wave in run["waves"]:
        assert wave["verdict"] == "deadlock", wave
        assert wave["detected_by"] == "wedge", wave
        assert wave["detect_s"] < 30
        killed = wave["amplifiers"]["kill_worker"]["killed"]
        by_pid = {w["pid"]: w for w in wave["workers"]}
        # the killed worker crashed; its siblings, done with their share, are blocked behind it
        assert by_pid[killed["pid"]]["verdict"] == "crash"
        assert {w["verdict"] for p, w in by_pid.items() if p != killed["pid"]} == {"deadlock"}
        for w in wave["workers"]:
            assert w["diagnosis"]["pattern"] == names.EXECUTOR_WEDGED
            assert any("_recv" in e for e in w["diagnosis"]["evidence"])
    _no_process_left(run)


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.skipif(os.geteuid() != 0, reason="a memory cgroup needs root (or a delegated cgroup)")
def test_the_oom_killer_under_a_memory_limit_is_named_and_a_healthy_limit_is_no_alarm(
    tmp_path: Path,
) -> None:
    # GIVEN 64 MiB results under a limit too tight for three workers to hold them at once
    r = run_cli(
        [
            *THREE_WORKERS,
            "--waves",
            "2",
            "--result-bytes",
            "64M",
            "--memory-limit",
            "120M",
            "--report-dir",
            str(tmp_path / "tight"),
        ]
    )
    # THEN each wave lost a worker to the kernel's OOM killer, and the report says who killed it:
    # killed while it pickled its result, it broke the pool (exit 3); killed while it sent it, it
    # wedged the executor (exit 1): where the kill lands is the kernel's choice
    assert r.returncode in (1, 3), r.stdout + r.stderr
    tight = load_run(tmp_path / "tight")
    for wave in tight["waves"]:
        assert wave["amplifiers"]["memory_limit"]["oom_kills"] >= 1
        crashed = [w for w in wave["workers"] if w["verdict"] == "crash"]
        assert crashed
        assert all("OOM killer" in w["diagnosis"]["summary"] for w in crashed), crashed
    # AND the same results under a limit with headroom: no OOM kill, no false alarm
    roomy = cli_run(
        [*THREE_WORKERS, "--waves", "3", "--result-bytes", "64M", "--memory-limit", "1G"],
        0,
        tmp_path / "roomy",
    )
    for wave in roomy["waves"]:
        # ok, or slow where a loaded host stretched a batch past the stall floor: never a crash or a hang
        assert wave["verdict"] in ("ok", "slow"), wave
        assert wave["amplifiers"]["memory_limit"]["oom_kills"] == 0
        assert not wave["amplifiers"]["not_applied"]
    _no_process_left(tight)
    _no_process_left(roomy)


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_kill_worker_random_is_a_named_crash_at_its_seeded_batch(report_dir: Path) -> None:
    run = cli_run(
        [
            "run",
            "--workers",
            "2",
            "--rayon",
            "2",
            "--waves",
            "2",
            "--iterations",
            "30",
            "--kill-worker",
            "random",
            "--seed",
            "4",
        ],
        3,
        report_dir,
    )
    for wave in run["waves"]:
        lever = wave["amplifiers"]["kill_worker"]
        killed = lever["killed"]
        assert killed["slot"] == lever["slot"]
        assert killed["batches"] >= lever["batch"]
        victim = next(w for w in wave["workers"] if w["pid"] == killed["pid"])
        assert victim["verdict"] == "crash"
        assert "--kill-worker" in victim["diagnosis"]["summary"]


def _probe(cpu_s: float, parked: int, threads: int) -> ProbeFinding:
    lock = Wait(WaitKind.LOCK, "futex", "futex 0x10 (no timeout)")
    ts = tuple(
        ThreadDelta(i, "python", "S", None, 202, 0x10, 0.0, 0, 0, parked=i < parked, wait=lock)
        for i in range(threads)
    )
    return ProbeFinding(1, ProbeKind.DEADLOCK, 0.5, cpu_s, ts, (), "x")


WEDGED_DIAGNOSIS = Diagnosis(Verdict.DEADLOCK, "x", (), pattern=names.EXECUTOR_WEDGED)


@pytest.mark.parametrize(
    ("workers", "matches"),
    [
        # a wedge: the survivor parked, no CPU, the killed worker a crash (its zombie)
        (
            (
                builders.worker(Verdict.DEADLOCK, probe=_probe(0.0, 4, 4), diagnosis=WEDGED_DIAGNOSIS),
                builders.worker(Verdict.CRASH, pid=2, signal=9, diagnosis=WEDGED_DIAGNOSIS),
            ),
            {"parked": True, "cpu": True, "executor": True, "zombie": True},
        ),
        # a hang inside the loader: parked and idle, but the executor and its workers were fine
        (
            (builders.worker(Verdict.DEADLOCK, probe=_probe(0.0, 17, 17)),),
            {"parked": True, "cpu": True, "executor": False, "zombie": False},
        ),
        # a livelock: burning, not parked
        (
            (builders.worker(Verdict.LIVELOCK, probe=_probe(0.9, 0, 4)),),
            {"parked": False, "cpu": False, "executor": False, "zombie": False},
        ),
    ],
)
def test_a_hung_waves_symptoms_stand_beside_issue_263s(
    workers: tuple[WorkerOutcome, ...], matches: dict[str, bool]
) -> None:
    got = beside(builders.wave(workers=workers), ISSUE_263.symptoms)
    assert {s.name: s.matches for s in got} == matches


def test_a_healthy_wave_has_no_symptoms() -> None:
    assert beside(builders.wave(), ISSUE_263.symptoms) == ()
