"""`gvlstress shrink` end to end on the fixture's real hangs: the search, its state, and the
standalone reproducer run where gvlstress cannot be imported at all."""

from __future__ import annotations

import glob
import json
import shutil
import signal
import subprocess
import venv
from pathlib import Path
from typing import Any

import pytest

from conftest import GVL, ROOT, cli_env, cli_run, run_cli, run_in_own_group, wait_for
from hostile import hostile_process

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def _bare_python(where: Path) -> Path:
    """An interpreter that has the fixture loader and nothing of gvlstress: a fresh venv with
    only gvlstress_native copied in."""
    import gvlstress_native

    venv.EnvBuilder(with_pip=False).create(where)
    python = where / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import site; print(site.getsitepackages()[0])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    shutil.copytree(Path(gvlstress_native.__file__).parent, Path(site) / "gvlstress_native")
    probe = subprocess.run(
        [
            str(python),
            "-c",
            "import gvlstress_native\ntry:\n import gvlstress\nexcept ImportError:\n print('absent')",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert probe.stdout.strip() == "absent", probe.stdout + probe.stderr
    return python


def _reproduce(python: Path, script: Path, launches: int, *more: str) -> subprocess.CompletedProcess[str]:
    """The reproducer run alone: no gvlstress, no PYTHONPATH, no user site (-I)."""
    argv = [str(python), "-I", str(script), "--launches", str(launches), *more]
    return run_in_own_group(argv, timeout=launches * 90 + 60, cwd=script.parent)


def _shrink(run_dir: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    result = run_cli(["shrink", str(run_dir), *args], timeout=800)
    return result, json.loads((run_dir / "shrink.json").read_text())


def _run_dir(report_dir: Path) -> Path:
    (path,) = report_dir.glob("*/run.json")
    return path.parent


# Each of the long tests below is an xdist group of its own (tests/scheduling.py): they share nothing.
@pytest.mark.xdist_group("shrink-deadlock")
@pytest.mark.ci_seconds(95)
def test_a_deadlock_shrinks_to_one_worker_one_thread_one_batch_resumes_and_hangs_without_gvlstress(
    report_dir: Path, tmp_path: Path
) -> None:
    # GIVEN a run where every wave of 2 workers x 4 threads deadlocked
    cli_run(
        ["run", "--fault", "lock_across_par_iter", "--workers", "2", "--rayon", "4", "--waves", "2"],
        1,
        report_dir,
    )
    run_dir = _run_dir(report_dir)
    # WHEN its shrink is interrupted (Ctrl-C) once its first step is decided
    shrinking = subprocess.Popen(
        [*GVL, "shrink", str(run_dir), "--measure", "0"],
        env=cli_env(),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:

        def one_step_decided() -> bool:
            try:
                steps = json.loads((run_dir / "shrink.json").read_text())["steps"]
            except (OSError, ValueError):
                return False
            return any(s["decision"] == "kept" for s in steps)

        wait_for(one_step_decided, 300, "the first step to be decided")
        shrinking.send_signal(signal.SIGINT)
        out, err = shrinking.communicate(timeout=120)
    finally:
        shrinking.kill()
    # THEN it exits 130 with its state saved, and says how to resume
    assert shrinking.returncode == 130, out + err
    stopped = json.loads((run_dir / "shrink.json").read_text())
    assert stopped["finished"] is False
    assert "resumes it" in (run_dir / "shrink.md").read_text()
    first = stopped["steps"][0]
    # WHEN it is run again, it goes on from there (the decided step is not run again) to the end
    result, state = _shrink(run_dir, "--measure", "2")
    # THEN every step down to 1 x 1 x 1 batch is kept (each decided by the test), and it says so
    assert result.returncode == 1, result.stdout + result.stderr
    assert state["steps"][0] == first
    assert [(s["label"], s["decision"]) for s in state["steps"]] == [
        ("workers 2 -> 1", "kept"),
        ("threads 4 -> 1", "kept"),
        ("batches 100 -> 1", "kept"),
    ]
    assert state["launches"] == sum(s["launches"] for s in state["steps"])
    assert state["minimal"] == {"workers": 1, "rayon": 1, "iterations": 1}
    assert state["finished"] is True
    assert state["measured"]["rate"]["k"] == 2
    assert all((run_dir / s["runs"][0] / "run.json").is_file() for s in state["steps"])
    shown = (run_dir / "shrink.md").read_text()
    assert "| 1 | workers 2 -> 1 | 3 | 3 | kept |" in shown
    assert "workers=1, rayon=1, iterations=1" in shown
    # AND the reproducer hangs on its own, where gvlstress cannot be imported
    script = run_dir / "shrink" / "reproduce.py"
    bare = _bare_python(tmp_path / "bare")
    # (beside a process whose name is not UTF-8: the reproducer reads every /proc/PID/stat to find
    # its workers' children, and such a name once made it fail in its cleanup)
    # (one launch: the shrink measured two already, and a tally over several launches run alone
    # is the timing race's, below)
    with hostile_process(tmp_path, b"\x9d\xff)x (", [b"\x9d"], b"d", []):
        alone = _reproduce(bare, script, 1)
    assert alone.returncode == 1, alone.stdout + alone.stderr
    assert "hung 1 of 1 launches" in alone.stdout
    # AND when the script itself fails after a hung launch (its tally cannot be written), it
    # still ends, with its own exit code, rather than wait on the wedged executor's thread
    broken = _reproduce(bare, script, 1, "--json", str(tmp_path / "absent" / "t.json"))
    assert broken.returncode == 4, broken.stdout + broken.stderr
    assert "hung 1 of 1 launches" in broken.stdout
    assert "FileNotFoundError" in broken.stderr
    # AND the scenario it wrote runs in gvlstress as the same hang
    again = cli_run(
        ["run", "--scenario", str(run_dir / "shrink" / "scenario.toml"), "--waves", "1"], 1, tmp_path / "r"
    )
    assert again["scenario"]["workers"] == 1
    assert again["waves"][0]["workers"][0]["diagnosis"]["pattern"] == "lock held across a parallel region"


@pytest.mark.xdist_group("shrink-race")
@pytest.mark.ci_seconds(100)
def test_a_timing_race_shrinks_and_its_reproducer_hangs_at_a_measured_rate(
    report_dir: Path, tmp_path: Path
) -> None:
    # GIVEN a lock-order race with a 50 us window: most waves of 20 batches hang
    cli_run(
        ["run", "--fault", "lock_order", "-o", "window_us=50", "--workers", "1", "--rayon", "2",
         "--iterations", "20", "--waves", "4"],
        1,
        report_dir,
    )  # fmt: skip
    run_dir = _run_dir(report_dir)
    # WHEN it is shrunk on a small launch budget, and its reproducer measured
    result, state = _shrink(run_dir, "--max-launches", "12", "--measure", "4")
    assert result.returncode in (0, 1), result.stdout + result.stderr
    assert state["launches"] <= 12
    assert all(s["decision"] in ("kept", "dropped", "undecided", "pending") for s in state["steps"])
    measured = state["measured"]["rate"]
    assert measured["n"] == 4
    assert 0 <= state["measured"]["p_vs_original"] <= 1
    shown = (run_dir / "shrink.md").read_text()
    assert f"it hung in **{measured['k']}/4" in shown
    # THEN run alone, without gvlstress, it still hangs, and prints how often
    alone = _reproduce(_bare_python(tmp_path / "bare"), run_dir / "shrink" / "reproduce.py", 4)
    hung = int(alone.stdout.rsplit("hung ", 1)[1].split()[0])
    assert hung >= 1, alone.stdout + alone.stderr
    assert alone.returncode == 1


@pytest.mark.xdist_group("shrink-budget")
@pytest.mark.ci_seconds(20)
def test_a_time_budget_below_the_steps_launches_leaves_the_shrink_to_resume_not_finished(
    report_dir: Path,
) -> None:
    # GIVEN a run whose one wave of 1 worker x 2 threads deadlocked
    cli_run(
        ["run", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "2", "--waves", "1"],
        1,
        report_dir,
    )
    run_dir = _run_dir(report_dir)
    # WHEN it is shrunk on a time budget far below what its steps' launches need (each step may
    # take 30 launches: issue 37 found 0 launches, "every smaller setting was tried", finished)
    result, state = _shrink(run_dir, "--budget", "15s", "--measure", "0")
    # THEN it launched within the budget, and stopped unfinished, saying the budget ended it
    assert result.returncode == 1, result.stdout + result.stderr
    assert 0 < state["launches"] == sum(s["launches"] for s in state["steps"])
    assert state["finished"] is False
    assert "time budget" in state["stopped"]
    assert all(s["decision"] in ("kept", "dropped", "pending") for s in state["steps"])
    assert not any(s["decision"] in ("kept", "dropped") and s["launches"] == 0 for s in state["steps"])
    # WHEN the same command runs again THEN it goes on from there: no step is forgotten or redone
    again, resumed = _shrink(run_dir, "--budget", "15s", "--measure", "0")
    assert again.returncode == 1, again.stdout + again.stderr
    assert resumed["launches"] > state["launches"]
    assert [s["label"] for s in resumed["steps"][: len(state["steps"])]] == [
        s["label"] for s in state["steps"]
    ]
    decided = [s for s in state["steps"] if s["decision"] != "pending"]
    assert resumed["steps"][: len(decided)] == decided


@pytest.mark.xdist_group("shrink-hunt")
@pytest.mark.ci_seconds(45)
def test_hunt_shrink_under_a_secret_looking_report_dir_shrinks_the_real_run_and_shows_usable_paths(
    tmp_path: Path,
) -> None:
    # GIVEN a report directory whose path looks like a secret (a token=, a 32-hex Bazel output base)
    secret = "token=hunter2hunter2XYZ"
    reports = tmp_path / secret / "0123456789abcdef0123456789abcdef"
    # WHEN a hunt finds a deadlock and shrinks it
    r = run_cli(
        ["hunt", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "2", "--iterations", "1",
         "--max-waves", "1", "--shrink", "--report-dir", str(reports)],
        timeout=800,
    )  # fmt: skip
    # THEN the shrink ran on the real run directory (issue 37: it was handed the redacted one, exit 2)
    assert r.returncode == 1, r.stdout + r.stderr
    (run_dir,) = (p.parent for p in reports.glob("*/run.json"))
    state = json.loads((run_dir / "shrink.json").read_text())
    assert state["finished"] is True
    assert [(s["label"], s["decision"]) for s in state["steps"]] == [("threads 2 -> 1", "kept")]
    assert all((run_dir / s["runs"][0] / "run.json").is_file() for s in state["steps"])
    assert (run_dir / "shrink" / "reproduce.py").is_file()
    # AND the console spells no secret, and every path it shows opens
    shown = r.stdout + r.stderr
    assert "hunter2" not in shown
    assert "<redacted>" not in shown
    paths = [w for line in shown.splitlines() for w in line.split() if w.startswith(str(tmp_path)[:8])]
    assert any(p.endswith("/report.md") for p in paths)
    for p in paths:
        assert len(glob.glob(p)) == 1, p
    # AND no file written holds it
    assert not [p for p in run_dir.rglob("*") if p.is_file() and b"hunter2" in p.read_bytes()]


def test_a_run_that_did_not_hang_is_refused_in_one_line(report_dir: Path) -> None:
    cli_run(["run", "--workers", "1", "--rayon", "2", "--waves", "1", "--iterations", "5"], 0, report_dir)
    result = run_cli(["shrink", str(_run_dir(report_dir))])
    assert result.returncode == 2
    assert "has no hung wave: nothing to shrink" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_directory_that_is_no_run_is_refused_in_one_line(tmp_path: Path) -> None:
    result = run_cli(["shrink", str(tmp_path)])
    assert result.returncode == 2
    assert "run.json" in result.stderr
    assert "Traceback" not in result.stderr
