"""The real genvarloader from PyPI: the fixed release in this environment, 0.36.0 via --python.

Slow tier (still run in CI). The second environment is made by the test setup and reused
across runs (GVLSTRESS_CACHE or ~/.cache/gvlstress/venvs). The parallel path is verified by
thread counts, not assumed.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import GVL036, load_run, run_cli, workers_of
from gvlstress.judge import names

# The first test builds the 0.36.0 environment (pip over the network): a longer budget.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
OLD = GVL036


def gvl_run(report_dir: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    result = run_cli(
        [
            "run",
            "--target",
            "genvarloader",
            "--workers",
            "2",
            "--waves",
            "1",
            "--iterations",
            "15",
            "--report-dir",
            str(report_dir),
            *args,
        ],
        timeout=900,
    )
    return result, load_run(report_dir)


def assert_parallel_path(w: dict[str, Any], pool: int) -> None:
    info = w["target_info"]
    assert w["rayon_threads"] == pool
    assert w["threads_max"] >= pool + 1
    # most pool threads did real work while batches loaded (>= 1 ms of CPU each)
    assert info["threads_burning"] >= pool // 2 + 1, info


def test_fixed_release_with_16_threads_takes_the_parallel_path(report_dir: Path) -> None:
    result, run = gvl_run(report_dir, "--rayon", "16", "-o", "version=0.43.1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert run["warnings"] == []
    for w in workers_of(run):
        info = w["target_info"]
        assert info["genvarloader"] == "0.43.1"
        assert info["forced_parallel"] == "GVL_FORCE_PARALLEL=1"
        assert info["gvl_resolved_threads"] == 16
        assert w["env_effective"]["GVL_NUM_THREADS"] == "16"
        assert_parallel_path(w, 16)


def test_fixed_release_overrides_an_inherited_rayon_num_threads(report_dir: Path) -> None:
    result, run = gvl_run(report_dir, "--inherit-rayon", "16")
    assert result.returncode == 0, result.stdout + result.stderr
    budget = int(run["environment"]["cpu_budget"])
    for w in workers_of(run):
        info = w["target_info"]
        assert info["rayon_env_before_import"] == "16"
        assert info["rayon_env_after_import"] == str(budget)  # 0.43.1 overwrites it with its cap
        assert w["rayon_threads"] == budget


def test_036_via_python_reproduces_the_setdefault_bug(report_dir: Path, gvl036_python: str) -> None:
    # GIVEN 0.36.0 in a second environment and workers born with RAYON_NUM_THREADS=16, as in #263
    result, run = gvl_run(
        report_dir, "--python", gvl036_python, "--inherit-rayon", "16", "-o", f"version={OLD}"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert run["target"]["versions"]["genvarloader"] == OLD
    assert run["warnings"] == []
    for w in workers_of(run):
        info = w["target_info"]
        # THEN the workers imported 0.36.0 from that environment, not this one
        assert info["genvarloader"] == OLD
        assert info["genvarloader_file"].startswith(str(Path(gvl036_python).parent.parent))
        assert info["forced_parallel"].startswith("should_parallelize replaced")
        # ...resolved a count from affinity, yet the inherited 16 sized the pool (setdefault)
        assert info["gvl_resolved_threads"] == int(run["environment"]["affinity"])
        assert info["rayon_env_after_import"] == "16"
        assert_parallel_path(w, 16)
    md = next(report_dir.iterdir()).joinpath("report.md").read_text()
    assert "but RAYON_NUM_THREADS=16 survived its import" in md


def test_036_wedges_its_executor_when_a_worker_dies_sending_a_big_result(
    report_dir: Path, gvl036_python: str
) -> None:
    # GIVEN real 0.36.0 workers returning 64 MiB each, one SIGKILLed while it sends (#263's shape)
    result, run = gvl_run(
        report_dir, "--python", gvl036_python, "--workers", "3", "--rayon", "4", "--iterations", "5",
        "--result-bytes", "64M", "--kill-worker", "sending", "-o", f"version={OLD}",
    )  # fmt: skip
    # THEN the wave is a deadlock found by the wedge rule (not the timeout), every worker named
    assert result.returncode == 1, result.stdout + result.stderr
    (wave,) = run["waves"]
    assert wave["detected_by"] == "wedge"
    assert {w["diagnosis"]["pattern"] for w in wave["workers"]} == {names.EXECUTOR_WEDGED}
    # the dead worker crashed; each sibling either finished its share and blocked on the dead
    # worker's lock (deadlock) or was still at work when the wedge ended the wave (cancelled)
    verdicts = sorted(w["verdict"] for w in wave["workers"])
    assert verdicts.count("crash") == 1, verdicts
    assert set(verdicts) - {"crash"} <= {"deadlock", "cancelled"}, verdicts
    assert {w["target_info"].get("genvarloader") for w in wave["workers"] if w["target_info"]} <= {OLD}


@pytest.mark.parametrize(("loader", "code"), [("fork", 1), ("forkserver", 0)])
def test_036_a_loader_child_forked_after_the_pool_hangs_and_is_named(
    report_dir: Path, gvl036_python: str, loader: str, code: int
) -> None:
    # GIVEN real 0.36.0 workers that run one batch, then take batches from a loader child
    result, run = gvl_run(
        report_dir, "--python", gvl036_python, "--rayon", "4", "--iterations", "4", "--timeout", "120",
        "-o", f"loader={loader}", "-o", f"version={OLD}",
    )  # fmt: skip
    assert result.returncode == code, result.stdout + result.stderr
    (wave,) = run["waves"]
    if loader == "forkserver":  # the control: a fresh process has a pool of its own
        assert {w["verdict"] for w in wave["workers"]} <= {"ok", "slow"}
        return
    # THEN each worker is a deadlock found by the stall (not the timeout), named after its
    # child: forked after the pool started, waiting in genvarloader's parallel batch
    assert wave["detected_by"] == "stall"
    hung = [w for w in wave["workers"] if w["verdict"] == "deadlock"]
    assert hung
    for w in hung:
        assert w["diagnosis"]["pattern"] == names.FORK_AFTER_INIT
        assert "blocked behind its child" in w["probe"]["reason"]
        stacks = json.dumps(w["capture"])
        assert "genvarloader::genotypes::get_diffs_sparse" in stacks


def test_threaded_mode_runs_python_work_beside_the_loader(report_dir: Path, gvl036_python: str) -> None:
    result, run = gvl_run(report_dir, "--python", gvl036_python, "--rayon", "8", "-o", "mode=threaded")
    assert result.returncode == 0, result.stdout + result.stderr
    for w in workers_of(run):
        assert w["target_info"]["mode"] == "threaded"
        assert w["target_info"]["gil_work_rounds"] > 0
        assert_parallel_path(w, 8)


def test_a_version_mismatch_is_warned_about(report_dir: Path, gvl036_python: str) -> None:
    result, run = gvl_run(report_dir, "--python", gvl036_python, "--rayon", "4", "-o", "version=0.43.1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "scenario expects genvarloader 0.43.1, but workers imported 0.36.0" in run["warnings"]
    assert "warning: scenario expects genvarloader 0.43.1" in result.stdout


def test_missing_genvarloader_is_an_environment_problem(report_dir: Path) -> None:
    bare = "/usr/bin/python3"
    if not Path(bare).exists():
        pytest.skip("needs an interpreter without genvarloader")
    result = run_cli(
        ["run", "--target", "genvarloader", "--python", bare, "--report-dir", str(report_dir)], timeout=120
    )
    assert result.returncode == 4
    assert result.stderr.strip().startswith(f"gvlstress: error: genvarloader is not installed for {bare}")


def test_compare_two_real_runs(tmp_path: Path, gvl036_python: str) -> None:
    old, _ = gvl_run(tmp_path / "old", "--python", gvl036_python, "--inherit-rayon", "16")
    new, _ = gvl_run(tmp_path / "new", "--inherit-rayon", "16")
    assert old.returncode == new.returncode == 0
    out = tmp_path / "cmp.md"
    result = run_cli(
        [
            "compare",
            str(next((tmp_path / "old").iterdir())),
            str(next((tmp_path / "new").iterdir())),
            "--output",
            str(out),
        ],
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    md = out.read_text()
    assert "genvarloader 0.36.0" in md
    assert "genvarloader 0.43.1" in md
    assert "0/1 (< 95.0% at 95%)" in md
    assert "Fisher exact p = 1" in md


def test_a_cold_numba_cache_is_warmed_once_so_spawned_workers_never_race_on_it(
    report_dir: Path, tmp_path: Path
) -> None:
    # GIVEN an empty numba cache (without the warm-up, 5 workers crash on it now and then:
    # LLVM ERROR: Symbol not found, scenario gvl-cold-numba-cache)
    cache = tmp_path / "numba"
    result = run_cli(
        [
            "run",
            "--target",
            "genvarloader",
            "--workers",
            "4",
            "--waves",
            "3",
            "--iterations",
            "3",
            "--report-dir",
            str(report_dir),
        ],
        timeout=900,
        NUMBA_CACHE_DIR=str(cache),
    )
    # THEN one warm-up filled it before any worker started, and no wave crashed
    assert result.returncode == 0, result.stdout + result.stderr
    run = load_run(report_dir)
    assert run["target"]["warm_up"]["done"] is True
    # ok, or slow where a loaded host let a heartbeat go quiet past the floor and then resume:
    # neither is the race (a crash or an error in some worker)
    verdicts = [w["verdict"] for w in run["waves"]]
    assert len(verdicts) == 3
    assert set(verdicts) <= {"ok", "slow"}, verdicts
    assert any(cache.rglob("*.nbi")), "the warm-up wrote no numba index files"
    for w in workers_of(run):
        assert w["target_info"]["numba_cache_dir"] == str(cache)


def test_the_cold_cache_scenario_gives_every_wave_an_empty_cache_of_its_own(report_dir: Path) -> None:
    result = run_cli(
        [
            "run",
            "--scenario",
            "gvl-cold-numba-cache",
            "--workers",
            "2",
            "--waves",
            "2",
            "--iterations",
            "1",
            "--report-dir",
            str(report_dir),
        ],
        timeout=900,
    )
    # a crash (exit 3) is the race this scenario exists for; anything else is a failure
    assert result.returncode in (0, 3), result.stdout + result.stderr
    run = load_run(report_dir)
    assert run["target"]["warm_up"]["done"] is False
    first, second = (wave["env"]["NUMBA_CACHE_DIR"] for wave in run["waves"])
    for wave, want in zip(run["waves"], (first, second), strict=True):
        assert {w["target_info"]["numba_cache_dir"] for w in wave["workers"] if w["target_info"]} <= {want}
    assert Path(first).name == "wave-0"
    assert Path(second).name == "wave-1"
    assert not Path(first).parent.exists(), "the per-run cache root outlived the run"
    for w in workers_of(run):
        if w["verdict"] == "crash":  # when the race struck, the report says why
            assert any("LLVM ERROR" in line for line in w["stderr_tail"]), w["stderr_tail"]
