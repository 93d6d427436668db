"""Runs that scale: nothing a wave opens outlives it, and a run's files survive its harness."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
from pathlib import Path

import pytest

from conftest import GVL, ROOT, cli_env, load_run, run_cli, wait_for


def _limit_fds() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


@pytest.mark.slow
@pytest.mark.ci_seconds(45)
def test_a_long_run_under_ulimit_256_keeps_its_descriptors_flat(report_dir: Path) -> None:
    # GIVEN a harness that may open 256 files at most (the old leak: 4 fds a wave here)
    r = subprocess.run(
        [*GVL, "run", "--workers", "1", "--waves", "150", "--iterations", "1",
         "--report-dir", str(report_dir)],
        capture_output=True, text=True, timeout=600, env=cli_env(), cwd=ROOT, preexec_fn=_limit_fds, check=False,
    )  # fmt: skip
    # THEN all 150 waves run, and the harness holds as many descriptors and threads after the
    # last wave as after the tenth; its memory maps do not grow with the waves (a library loaded
    # the first time a rarer code path runs adds a map once; a leak adds them wave after wave)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    run = load_run(report_dir)
    health = [w["harness"] for w in run["waves"]]
    assert len(health) == 150
    for key in ("fds", "threads"):
        assert health[-1][key] == health[9][key], (key, health[9], health[-1])
    maps = [h["maps"] for h in health]
    assert maps[-1] - maps[9] <= 4, maps
    assert maps[-1] - maps[79] <= 2, maps


@pytest.mark.slow
def test_a_sigkilled_harness_leaves_every_finished_wave_readable(report_dir: Path) -> None:
    # GIVEN a run of many waves whose harness is SIGKILLed once two waves are on disk
    harness = subprocess.Popen(
        [*GVL, "run", "--workers", "1", "--waves", "1000", "--iterations", "1",
         "--report-dir", str(report_dir)],
        env=cli_env(), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:

        def two_waves() -> Path | None:
            for log in report_dir.glob("*/waves.jsonl"):
                if len(log.read_text().splitlines()) >= 2:
                    return log.parent
            return None

        run_dir = wait_for(two_waves, 120, "two waves on disk")
        os.kill(harness.pid, signal.SIGKILL)
        harness.wait(10)
    finally:
        if harness.poll() is None:
            os.killpg(harness.pid, signal.SIGKILL)
    # THEN run.json says the run is incomplete, and `report` renders the waves that finished
    head = json.loads((run_dir / "run.json").read_text())
    assert head["complete"] is False
    assert head["waves"] == []
    logged = len((run_dir / "waves.jsonl").read_text().splitlines())
    r = run_cli(["report", str(run_dir)])
    assert r.returncode == 0, r.stdout + r.stderr
    md = (run_dir / "report.md").read_text()
    assert f"No hang in {logged} waves." in md
    assert "the harness ended before finishing this run" in md


@pytest.mark.slow
def test_run_json_refers_to_captures_and_report_renders_them_again(report_dir: Path) -> None:
    # GIVEN a hung wave (one worker, lock held across a parallel region)
    r = run_cli(
        ["run", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "4", "--waves", "1",
         "--report-dir", str(report_dir)]
    )  # fmt: skip
    assert r.returncode == 1, r.stdout + r.stderr
    run_dir = next(report_dir.glob("*"))
    run = json.loads((run_dir / "run.json").read_text())
    (w,) = run["waves"][0]["workers"]
    # THEN run.json names the capture's file instead of copying it, and the file holds it
    ref = w["capture"]
    assert isinstance(ref, str)
    assert ref.startswith("workers/wave1-slot0-")
    assert ref.endswith("/capture.json")
    capture = json.loads((run_dir / ref).read_text())
    assert len(capture["threads"]) == 5
    before = (run_dir / "report.md").read_text()
    # AND a re-render from the run directory gives the same report, stacks included
    r = run_cli(["report", str(run_dir), "--force"])
    assert r.returncode == 0, r.stderr
    assert (run_dir / "report.md").read_text() == before
    assert "Stacks of hung workers" in before


def test_an_old_run_json_is_read_and_its_audit_worked_out(tmp_path: Path) -> None:
    # GIVEN the committed example, written by an older gvlstress (schema /1, captures inline,
    # no audit stored)
    from gvlstress import store
    from gvlstress.reporters import json_report, markdown

    example = ROOT / "reports" / "examples" / "lock-across-par-iter"
    old = json.loads((example / "run.json").read_text())
    assert old["schema"] == "gvlstress.run/1"
    assert "audit" not in old
    # WHEN it is read
    result = store.read(example)
    # THEN its audit is there, and writing it again gives schema /3 with the audit stored
    assert result.audit
    assert any("rayon threads" in a.message for a in result.audit)
    json_report.write(result, tmp_path)
    again = json.loads((tmp_path / "run.json").read_text())
    assert again["schema"] == json_report.SCHEMA == "gvlstress.run/3"
    assert again["audit"][0]["message"] == result.audit[0].message
    assert markdown.render(store.read(tmp_path)) == markdown.render(result)
