"""End to end against real spawned processes and real rayon pools (no mocks of either)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from conftest import ROOT, alive, cli_env, load_run, run_cli, spawned_workers, wait_for, workers_of

pytestmark = pytest.mark.slow


def test_healthy_5x16_run_is_ok_and_shows_16_rayon_threads_per_worker(report_dir: Path) -> None:
    result = run_cli(
        [
            "run",
            "--workers",
            "5",
            "--rayon",
            "16",
            "--waves",
            "2",
            "--iterations",
            "40",
            "--report-dir",
            str(report_dir),
        ]
    )
    assert result.returncode == 0, result.stdout + result.stderr
    run = load_run(report_dir)
    assert run["schema"] == "gvlstress.run/3"
    # 80 rayon threads on the host's cores beside the rest of CI: a worker whose heartbeat went
    # quiet past the stall and was found working is `slow` (exit 0), never a hang
    summary = dict(run["summary"])
    assert summary.pop("verdict") in ("ok", "slow"), run["summary"]
    assert summary == {"waves": 2, "hung": 0, "crashed": 0, "errored": 0, "interrupted": False}
    workers = workers_of(run)
    assert len(workers) == 10
    for w in workers:
        assert w["verdict"] in ("ok", "slow")
        assert w["iterations"] == 40
        assert w["rayon_threads"] == 16
        assert w["threads_max"] >= 17  # 16 pool threads + the main thread
        assert w["cpu_s"] > 0
    assert len({w["pid"] for w in workers}) == 10  # every wave starts fresh interpreters
    assert not [w["pid"] for w in workers if alive(w["pid"])]


def test_inherited_rayon_threads_apply_unless_rayon_is_given(report_dir: Path) -> None:
    result = run_cli(
        [
            "run",
            "--workers",
            "2",
            "--inherit-rayon",
            "16",
            "--waves",
            "1",
            "--iterations",
            "10",
            "--report-dir",
            str(report_dir / "a"),
        ]
    )
    assert result.returncode == 0, result.stderr
    run = load_run(report_dir / "a")
    assert run["scenario"]["inherit_rayon"] == 16
    assert run["scenario"]["rayon"] is None
    for w in workers_of(run):
        assert w["env_inherited"]["RAYON_NUM_THREADS"] == "16"
        assert w["rayon_threads"] == 16
        assert w["threads_max"] >= 17

    result = run_cli(
        [
            "run",
            "--workers",
            "2",
            "--inherit-rayon",
            "16",
            "--rayon",
            "2",
            "--waves",
            "1",
            "--iterations",
            "10",
            "--report-dir",
            str(report_dir / "b"),
        ]
    )
    assert result.returncode == 0, result.stderr
    run = load_run(report_dir / "b")
    for w in workers_of(run):
        assert w["env_inherited"]["RAYON_NUM_THREADS"] == "16"
        assert w["env_effective"]["RAYON_NUM_THREADS"] == "2"
        assert w["rayon_threads"] == 2
        assert 3 <= w["threads_max"] < 17


def test_lock_across_par_iter_is_a_deadlock_found_from_the_stall(report_dir: Path) -> None:
    timeout = 60
    result = run_cli(
        [
            "run",
            "--workers",
            "5",
            "--rayon",
            "16",
            "--waves",
            "1",
            "--fault",
            "lock_across_par_iter",
            "--fault-rate",
            "1.0",
            "--timeout",
            str(timeout),
            "--report-dir",
            str(report_dir),
        ]
    )
    assert result.returncode == 1, result.stdout + result.stderr
    run = load_run(report_dir)
    wave = run["waves"][0]
    assert wave["verdict"] == "deadlock"
    assert wave["detected_by"] == "stall"
    assert wave["detect_s"] < timeout / 4
    for w in wave["workers"]:
        assert w["verdict"] == "deadlock"
        probe = w["probe"]
        assert probe["kind"] == "deadlock"
        assert probe["cpu_s"] == 0.0
        assert all(t["parked"] for t in probe["threads"])
        # the 16 pool threads wait on one address (the mutex); the caller on its latch
        sizes = sorted(len(g["tids"]) for g in probe["futex_groups"])
        assert sizes[-1] == 16
        assert sum(sizes) == 17
    assert not [w["pid"] for w in wave["workers"] if alive(w["pid"])]


def test_slow_batches_past_the_stall_floor_are_slow_not_a_hang(report_dir: Path) -> None:
    result = run_cli(
        [
            "run",
            "--workers",
            "2",
            "--rayon",
            "4",
            "--waves",
            "1",
            "--iterations",
            "3",
            "--fault",
            "slow",
            "--stall-floor",
            "0.5",
            "-o",
            "slow_ms=1500",
            "--report-dir",
            str(report_dir),
        ]
    )
    assert result.returncode == 0, result.stdout + result.stderr
    run = load_run(report_dir)
    assert run["summary"]["hung"] == 0
    workers = workers_of(run)
    for w in workers:
        assert w["verdict"] == "slow"
        assert w["iterations"] == 3
        assert w["batch_s_max"] >= 1.5
    # The first worker into a slow batch is probed at the floor. A later one may not be: the
    # threshold learns the run's slowest batch (10x it), so a worker that starts its slow batch
    # after a sibling finished one is not probed at all, by design (its verdict is still slow).
    probed = [w for w in workers if w["stalls"] >= 1]
    assert probed, workers
    for w in probed:
        assert w["probe"]["kind"] != "deadlock"  # the pool was burning CPU when probed


def test_worker_imports_nothing_heavy(report_dir: Path) -> None:
    # the console script is the interesting case: spawn would re-import its click/rich imports
    exe = Path(sys.executable).with_name("gvlstress")
    assert exe.exists()
    result = subprocess.run(
        [
            str(exe),
            "run",
            "--target",
            "probe_target:ProbeTarget",
            "--workers",
            "1",
            "--waves",
            "1",
            "--iterations",
            "1",
            "--report-dir",
            str(report_dir),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=cli_env(),
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    (w,) = workers_of(load_run(report_dir))
    assert w["target_info"]["heavy_modules"] == []


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_mid_wave_writes_run_json_and_leaves_no_process(
    report_dir: Path, signum: int, code: int
) -> None:
    # GIVEN a run whose workers iterate for a long time
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "run",
            "--workers",
            "3",
            "--rayon",
            "4",
            "--waves",
            "5",
            "--duration",
            "120",
            "--timeout",
            "200",
            "--report-dir",
            str(report_dir),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        cwd=ROOT,
    )
    try:
        parent = psutil.Process(proc.pid)

        def iterating_workers() -> list[int]:
            busy = spawned_workers(parent, 5)  # pool built: batches are flowing
            return busy if len(busy) == 3 else []

        pids = wait_for(iterating_workers, 60, "three workers with their rayon pools")
        # WHEN the supervisor gets the signal
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    # THEN it exits with the documented code, after writing run.json, leaving nothing behind
    assert proc.returncode == code, out + err
    assert "Traceback" not in err
    run = load_run(report_dir)
    assert run["summary"]["interrupted"] is True
    assert run["interrupted_by"] == signum
    assert {w["pid"] for w in workers_of(run)} == set(pids)
    assert {w["verdict"] for w in workers_of(run)} == {"cancelled"}
    assert not [p for p in pids if alive(p)]


def test_workers_die_with_a_sigkilled_harness(report_dir: Path) -> None:
    # GIVEN a run whose workers are iterating
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "run",
            "--workers",
            "2",
            "--rayon",
            "2",
            "--duration",
            "120",
            "--timeout",
            "200",
            "--report-dir",
            str(report_dir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=cli_env(),
        cwd=ROOT,
    )
    try:
        parent = psutil.Process(proc.pid)

        def iterating() -> list[int]:
            busy = spawned_workers(parent, 3)  # pool built
            return busy if len(busy) == 2 else []

        pids = wait_for(iterating, 60, "two iterating workers")
        # WHEN the harness itself is SIGKILLed (it cannot clean up)
        proc.kill()
        proc.wait(10)
        # THEN the kernel takes its workers down too
        wait_for(lambda: not any(alive(p) for p in pids), 20, "the orphaned workers to die")
        assert len(pids) == 2
        assert not [p for p in pids if alive(p)]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_a_raising_worker_is_an_error_with_its_traceback(report_dir: Path) -> None:
    result = run_cli(
        [
            "run",
            "--target",
            "probe_target:ProbeTarget",
            "-o",
            "mode=raise",
            "-o",
            "at=3",
            "--workers",
            "3",
            "--waves",
            "1",
            "--iterations",
            "2000",
            "--report-dir",
            str(report_dir),
        ]
    )
    assert result.returncode == 3, result.stdout + result.stderr
    workers = workers_of(load_run(report_dir))
    verdicts = {w["slot"]: w["verdict"] for w in workers}
    assert verdicts == {0: "error", 1: "ok", 2: "ok"}
    assert "RuntimeError: poisoned slot on batch 3" in workers[0]["detail"]
    assert workers[0]["iterations"] == 2
    assert len({w["pid"] for w in workers}) == 3  # no process took a second slot


def test_an_aborting_worker_is_a_crash_and_only_it_is_blamed(report_dir: Path) -> None:
    result = run_cli(
        [
            "run",
            "--target",
            "probe_target:ProbeTarget",
            "-o",
            "mode=abort",
            "-o",
            "at=3",
            "--workers",
            "3",
            "--waves",
            "2",
            "--iterations",
            "200000",
            "--report-dir",
            str(report_dir),
        ]
    )
    assert result.returncode == 3, result.stdout + result.stderr
    run = load_run(report_dir)
    assert run["summary"]["crashed"] == 2
    for wave in run["waves"]:
        culprit, *siblings = wave["workers"]
        assert (culprit["verdict"], culprit["signal"]) == ("crash", signal.SIGABRT)
        assert {w["verdict"] for w in siblings} <= {"ok", "cancelled"}
    assert not [w["pid"] for w in workers_of(run) if w["pid"] and alive(w["pid"])]
