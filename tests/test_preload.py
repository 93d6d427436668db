"""`--start-method forkserver --preload`: warm workers forked from one importing server, refused
when the import leaves a thread behind (real polars does), and nothing outlives the harness."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT, alive, cli_run, run_cli, wait_for, workers_of

pytestmark = pytest.mark.timeout(300)


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
