"""Every known failure class, live: detected, named from frames and /proc, with evidence and a hint.

Runs the native fixture's fault modes in real spawned (or forked) workers with real rayon pools.
Each class's run is the one `gvlstress selftest` makes of it (one selftest for the module: the
scenario `run --fault CLASS` makes, through the same `api.run`): its table is checked whole, and
each class's run.json and report.md in detail.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import alive, load_run, read_run, run_cli, workers_of
from gvlstress.judge import names

# class -> (wave verdict, pattern, evidence fragment)
CLASSES: dict[str, tuple[str, str, str]] = {
    "lock_across_par_iter": ("deadlock", names.LOCK_ACROSS, "holds the lock across the parallel region"),
    "pool_exhaustion": ("deadlock", names.POOL_EXHAUSTION, "rayon pool threads are inside jobs, blocked in"),
    "lock_order": ("deadlock", names.LOCK_ORDER, "different mutexes"),
    "gil_held": ("deadlock", names.GIL_HELD, "holds the GIL (py-spy: owns_gil)"),
    "fork_after_init": ("deadlock", names.FORK_AFTER_INIT, "no rayon pool thread"),
    "spin": ("livelock", names.LIVELOCK, "CPU-s burnt"),
    "crash": ("crash", names.CRASH, "SIGABRT"),
}


def run_class(report_dir: Path, fault: str, extra: list[str], workers: int = 2) -> tuple[int, dict[str, Any]]:
    result = run_cli(
        [
            "run",
            "--workers",
            str(workers),
            "--rayon",
            "8",
            "--waves",
            "1",
            "--iterations",
            "50",
            "--fault",
            fault,
            "--report-dir",
            str(report_dir),
            *extra,
        ]
    )
    return result.returncode, load_run(report_dir)


@pytest.fixture(scope="module")
def selftest(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """One `gvlstress selftest` (every control once, 2 workers x 8 threads): its console result
    and its directory."""
    report_dir = tmp_path_factory.mktemp("selftest")
    result = run_cli(["selftest", "--report-dir", str(report_dir)], timeout=600)
    (run_dir,) = report_dir.glob("*-selftest")
    return result, run_dir


def control_run(
    selftest: tuple[subprocess.CompletedProcess[str], Path], name: str
) -> tuple[Path, dict[str, Any]]:
    """The run directory and run.json of the selftest's run of control `name`."""
    rows = json.loads((selftest[1] / "selftest.json").read_text())["rows"]
    (attempt,) = next(r for r in rows if r["class"] == name)["attempts"]
    return Path(attempt["run_dir"]), read_run(Path(attempt["run_dir"]))


@pytest.mark.slow
@pytest.mark.xdist_group("selftest")
@pytest.mark.parametrize("fault", list(CLASSES))
def test_each_class_is_caught_and_named(
    selftest: tuple[subprocess.CompletedProcess[str], Path], fault: str
) -> None:
    verdict, pattern, fragment = CLASSES[fault]
    run_dir, run = control_run(selftest, fault)
    assert run["scenario"]["fault"] == fault
    wave = run["waves"][0]
    assert wave["verdict"] == verdict
    culprits = [w for w in wave["workers"] if w["verdict"] == verdict]
    assert culprits
    for w in culprits:
        d = w["diagnosis"]
        assert d["pattern"] == pattern, d
        assert d["hint"] == names.HINTS[pattern]
        assert any(fragment in e for e in d["evidence"]), d["evidence"]
        # a crash is named by its cause, not "crash (crash)"
        lead = "crash: worker died" if pattern == names.CRASH else f"{verdict} ({pattern})"
        assert d["summary"].startswith(lead), d["summary"]
    if verdict == "deadlock":
        assert wave["detected_by"] == "stall"
    assert not [w["pid"] for w in workers_of(run) if w["pid"] and alive(w["pid"])]
    md = (run_dir / "report.md").read_text()
    assert f"Pattern: **{pattern}**." in md


@pytest.mark.slow
@pytest.mark.xdist_group("selftest")
def test_init_race_is_a_nondeterministic_error_with_its_rate(
    selftest: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    # the selftest's init_race control: 5 workers x 8 threads, 3 waves of 40 batches, a 300 us window
    _, run = control_run(selftest, "init_race")
    assert run["scenario"]["workers"] == 5
    errored = [w for w in workers_of(run) if w["verdict"] == "error"]
    assert errored
    # never a crash or a hang (slow: a loaded host stretched a batch past the stall floor)
    assert {w["verdict"] for w in workers_of(run)} <= {"ok", "error", "slow"}
    named = {w["diagnosis"]["pattern"] for w in errored}
    assert names.NONDETERMINISTIC_ERROR in named
    mixed = next(w for w in errored if w["diagnosis"]["pattern"] == names.NONDETERMINISTIC_ERROR)
    assert "workers raised" in mixed["diagnosis"]["evidence"][0]
    assert "lost a concurrent-init race" in mixed["detail"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "pattern"),
    [
        ("pool_exhaustion", names.POOL_EXHAUSTION),
        ("gil_held", names.GIL_HELD),
        ("lock_across_par_iter", names.LOCK_ACROSS),
    ],
)
def test_patterns_come_from_the_threads_not_from_the_requested_mode(
    report_dir: Path, mode: str, pattern: str
) -> None:
    # GIVEN a target that hides its fault: the harness's scenario says fault = none
    result = run_cli(
        [
            "run",
            "--target",
            "hidden_fault:HiddenFault",
            "-o",
            f"mode={mode}",
            "--workers",
            "2",
            "--rayon",
            "8",
            "--waves",
            "1",
            "--report-dir",
            str(report_dir),
        ],
        RAYON_NUM_THREADS="8",
    )
    assert result.returncode == 1, result.stdout + result.stderr
    run = load_run(report_dir)
    assert run["scenario"]["fault"] == "none"
    # THEN the pattern is still named, from frames and /proc alone (a sibling still starting
    # when the first deadlock was confirmed is cancelled, not hung)
    hung = [w for w in workers_of(run) if w["verdict"] == "deadlock"]
    assert hung
    assert {w["diagnosis"]["pattern"] for w in hung} == {pattern}
    assert {w["verdict"] for w in workers_of(run)} <= {"deadlock", "cancelled"}


@pytest.mark.slow
def test_fork_after_init_is_named_from_the_setup_alone(report_dir: Path) -> None:
    # a healthy loader, but its pool started in the supervisor before the workers were forked
    rc, run = run_class(report_dir, "none", ["--start-method", "fork", "--warm-parent"])
    assert rc == 1
    for w in workers_of(run):
        assert w["diagnosis"]["pattern"] == names.FORK_AFTER_INIT
        assert w["threads_max"] == 1


@pytest.mark.slow
def test_fork_after_init_without_warm_parent_is_a_usage_error(report_dir: Path) -> None:
    result = run_cli(["run", "--fault", "fork_after_init", "--report-dir", str(report_dir)], timeout=60)
    assert result.returncode == 2
    assert "--warm-parent" in result.stderr


@pytest.mark.slow
@pytest.mark.xdist_group("negative-controls")  # long: a group of its own (tests/scheduling.py)
@pytest.mark.ci_seconds(40)
def test_negative_controls_repeated_raise_no_false_alarm(report_dir: Path) -> None:
    healthy = run_cli(
        [
            "run",
            "--workers",
            "5",
            "--rayon",
            "16",
            "--waves",
            "6",
            "--iterations",
            "60",
            "--report-dir",
            str(report_dir / "healthy"),
        ]
    )
    assert healthy.returncode == 0, healthy.stdout
    run = load_run(report_dir / "healthy")
    assert [w["verdict"] for w in run["waves"]] == ["ok"] * 6
    assert all(w["diagnosis"] is None for w in workers_of(run))
    slow = run_cli(
        [
            "run",
            "--workers",
            "3",
            "--rayon",
            "8",
            "--waves",
            "3",
            "--iterations",
            "2",
            "--fault",
            "slow",
            "-o",
            "slow_ms=1200",
            "--stall-floor",
            "0.5",
            "--report-dir",
            str(report_dir / "slow"),
        ]
    )
    assert slow.returncode == 0, slow.stdout
    run = load_run(report_dir / "slow")
    # every wave's batches go quiet past the 0.5 s floor: each wave is slow, whichever probed.
    # Wave 1 is probed (it sets the threshold); later waves run under the threshold the run has
    # learnt (10x the slowest batch), so they are not probed again, yet they say the same thing
    assert [w["verdict"] for w in run["waves"]] == ["slow", "slow", "slow"]
    assert any(w["stalls"] >= 1 for w in run["waves"][0]["workers"])
    later = [w for wave in run["waves"][1:] for w in wave["workers"]]
    assert all(w["stalls"] == 0 and "past the stall floor of 0.5s" in w["detail"] for w in later)
    assert run["summary"]["hung"] == 0


@pytest.mark.slow
@pytest.mark.xdist_group("selftest")
@pytest.mark.ci_seconds(75)
def test_selftest_catches_every_class_on_this_host(
    selftest: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    result, run_dir = selftest
    assert result.returncode == 0, result.stdout + result.stderr
    md = (run_dir / "selftest.md").read_text()
    assert md.startswith("# gvlstress selftest: pass")
    data = json.loads((run_dir / "selftest.json").read_text())
    assert [r["class"] for r in data["rows"]] == [
        "healthy",
        "slow",
        "io_wait",
        "sleep_wait",
        "thread_wait",
        "lock_across_par_iter",
        "pool_exhaustion",
        "lock_order",
        "gil_held",
        "fork_after_init",
        "executor_wedge",
        "big_results",
        "spin",
        "crash",
        "init_race",
    ]
    assert all(r["caught"] == r["named"] == r["runs"] == 1 for r in data["rows"])


@pytest.mark.slow
def test_selftest_rejects_an_unknown_class(tmp_path: Path) -> None:
    result = run_cli(["selftest", "--only", "nope", "--report-dir", str(tmp_path)], timeout=60)
    assert result.returncode == 2
    assert "--only" in result.stderr
