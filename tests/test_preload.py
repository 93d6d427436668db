"""`--start-method forkserver --preload`: warm workers forked from one importing server, refused
when the import leaves a thread behind (real polars does), and nothing outlives the harness."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

import pytest

from conftest import ROOT, alive, cli_env, cli_run, run_cli, wait_for, workers_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def test_preloaded_waves_run_and_record_the_fork_server(report_dir: Path) -> None:
    run = cli_run(
        [
            "run",
            "--workers",
            "3",
            "--rayon",
            "4",
            "--waves",
            "3",
            "--iterations",
            "5",
            "--start-method",
            "forkserver",
            "--preload",
        ],
        0,
        report_dir,
    )
    pre = run["target"]["preloaded"]
    assert pre["threads"] == 1
    assert {"gvlstress_native", "gvlstress.targets.native", "gvlstress.worker"} <= set(pre["imported"])
    assert pre["env"] == {"RAYON_NUM_THREADS": "4"}  # born with the workers' thread settings
    assert all(w["verdict"] == "ok" and w["iterations"] == 5 for w in workers_of(run))
    assert all(w["rayon_threads"] == 4 for w in workers_of(run))
    # the server went with the harness (its lifeline pipe closed)
    wait_for(lambda: not alive(pre["server"]), 30, "the fork server to exit")


def test_a_deadlock_is_still_caught_and_cleaned_up_with_preload(report_dir: Path) -> None:
    run = cli_run(
        [
            "run",
            "--workers",
            "2",
            "--rayon",
            "2",
            "--waves",
            "1",
            "--fault",
            "lock_across_par_iter",
            "--start-method",
            "forkserver",
            "--preload",
        ],
        1,
        report_dir,
    )
    assert run["waves"][0]["verdict"] == "deadlock"
    assert all(not alive(w["pid"]) for w in workers_of(run))


def test_preload_is_refused_when_the_import_starts_threads(tmp_path: Path) -> None:
    """polars starts a jemalloc background thread and a cleaner thread at import: forked workers
    would inherit neither. The harness says so in one line instead of running broken waves."""
    r = run_cli(
        [
            "run",
            "--target",
            "polars_loader:batches",
            "--workers",
            "2",
            "--waves",
            "1",
            "--start-method",
            "forkserver",
            "--preload",
            "--report-dir",
            str(tmp_path),
        ],
        cwd=ROOT / "examples",
        PYTHONPATH=str(ROOT / "examples"),
    )
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: --preload: importing ")
    assert "polars_loader" in line
    assert "thread(s) running in the fork server" in line
    assert "(hint: drop --preload" in line
    assert "Traceback" not in r.stdout + r.stderr


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--preload"], "preload needs start_method = forkserver (got spawn)"),
        (
            ["--start-method", "forkserver", "--preload", "--explore", "--budget", "10"],
            "--explore varies thread settings that --preload fixes at import in the fork server",
        ),
    ],
)
def test_preload_misuse_is_one_line(tmp_path: Path, extra: list[str], message: str) -> None:
    command = "hunt" if "--explore" in extra else "run"
    r = run_cli([command, "--workers", "1", *extra, "--report-dir", str(tmp_path)], timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith(f"gvlstress: error: {message}")


def test_a_preload_that_hangs_in_the_fork_server_gives_up_at_its_deadline(tmp_path: Path) -> None:
    r = run_cli(
        ["run", "--target", "hang_in_server:batches", "--workers", "1", "--waves", "1", "--start-method",
         "forkserver", "--preload", "--startup-grace", "5", "--report-dir", str(tmp_path)],
        timeout=60,
    )  # fmt: skip
    assert r.returncode == 4, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert "in the fork server did not finish within 5s" in line
    assert "Traceback" not in r.stdout + r.stderr


def test_a_second_sigterm_stops_a_harness_stuck_in_a_target_import(tmp_path: Path) -> None:
    harness = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "run",
            "--target",
            "hang_at_import:batches",
            "--report-dir",
            str(tmp_path),
        ],
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        # the harness is inside the target's import when its main thread waits on a futex there
        wait_for(lambda: _in_import(harness.pid), 60, "the harness to block in the target's import")
        # the first SIGTERM only sets the stop flag nobody polls here; a second stops at once. Two
        # sent back to back can merge into one pending signal, so keep sending until it ends.
        err = b""
        end = time.monotonic() + 30
        while harness.poll() is None and time.monotonic() < end:
            harness.send_signal(signal.SIGTERM)
            with suppress(subprocess.TimeoutExpired):
                _, err = harness.communicate(timeout=0.5)
        assert harness.returncode == 143
        assert err.decode().strip().splitlines() == [
            "gvlstress: stopped at once by a second SIGTERM (what was in progress has no report; "
            "started processes were killed)"
        ]
    finally:
        with suppress(ProcessLookupError):
            os.killpg(harness.pid, signal.SIGKILL)
        harness.wait(10)


def _in_import(pid: int) -> bool:
    from gvlstress.probes import pyspy

    tool = pyspy.locate()  # the harness's own lookup: PATH, else beside this interpreter
    assert tool is not None
    try:
        frames = subprocess.run(
            [tool, "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=20, check=False
        ).stdout
    except subprocess.TimeoutExpired:
        return False
    return "hang_at_import.py" in frames
