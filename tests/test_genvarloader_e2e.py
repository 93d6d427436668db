"""The real genvarloader from PyPI: the fixed release in this environment, 0.36.0 via --python.

Slow tier (still run in CI). The second environment is made by the test setup and reused
across runs (GVLSTRESS_CACHE or ~/.cache/gvlstress/venvs). The parallel path is verified by
thread counts, not assumed.

A run of the genvarloader target costs up to a minute of a loaded CI worker: tests that read the
same run share it (a module fixture, or `gvl036_fork_run` in tests/conftest.py), and CI's slow
pass spreads this file over its workers a group at a time (`xdist_group`: a group per shared run).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from conftest import GVL036, GvlRun, load_run, run_cli, workers_of
from gvlstress.judge import names

# The first test builds the 0.36.0 environment (pip over the network): a longer budget.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
OLD = GVL036


class Run(NamedTuple):
    result: subprocess.CompletedProcess[str]
    run: dict[str, Any]
    """Its run.json."""
    path: Path
    """Its run directory."""


def gvl_run(report_dir: Path, *args: str) -> Run:
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
    run = load_run(report_dir)
    return Run(result, run, next(report_dir.glob("*/run.json")).parent)


def assert_parallel_path(w: dict[str, Any], pool: int) -> None:
    info = w["target_info"]
    assert w["rayon_threads"] == pool
    assert w["threads_max"] >= pool + 1
    # most pool threads did real work while batches loaded (>= 1 ms of CPU each)
    assert info["threads_burning"] >= pool // 2 + 1, info


@pytest.fixture(scope="module")
def old_inherited_16(tmp_path_factory: pytest.TempPathFactory, gvl036_python: str) -> Run:
    """0.36.0 workers born with RAYON_NUM_THREADS=16, as in #263: the setdefault bug, and the old
    side of the comparison."""
    report_dir = tmp_path_factory.mktemp("old-inherited-16")
    return gvl_run(report_dir, "--python", gvl036_python, "--inherit-rayon", "16", "-o", f"version={OLD}")


@pytest.fixture(scope="module")
def new_inherited_16(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The fixed release's workers born with RAYON_NUM_THREADS=16: its override, and the new side
    of the comparison."""
    return gvl_run(tmp_path_factory.mktemp("new-inherited-16"), "--inherit-rayon", "16")


@pytest.fixture(scope="module")
def old_threaded_expecting_new(tmp_path_factory: pytest.TempPathFactory, gvl036_python: str) -> Run:
    """0.36.0 workers in threaded mode, in a scenario that expects 0.43.1: the threaded mode, and
    the version mismatch warned about."""
    report_dir = tmp_path_factory.mktemp("old-threaded")
    return gvl_run(
        report_dir, "--python", gvl036_python, "--rayon", "8", "-o", "mode=threaded", "-o", "version=0.43.1"
    )


@pytest.mark.xdist_group("gvl-16-threads")
@pytest.mark.ci_seconds(25)
def test_fixed_release_with_16_threads_takes_the_parallel_path(report_dir: Path) -> None:
    result, run, _ = gvl_run(report_dir, "--rayon", "16", "-o", "version=0.43.1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert run["warnings"] == []
    for w in workers_of(run):
        info = w["target_info"]
        assert info["genvarloader"] == "0.43.1"
        assert info["forced_parallel"] == "GVL_FORCE_PARALLEL=1"
        assert info["gvl_resolved_threads"] == 16
        assert w["env_effective"]["GVL_NUM_THREADS"] == "16"
        assert_parallel_path(w, 16)


@pytest.mark.xdist_group("gvl-inherited-16")
@pytest.mark.ci_seconds(25)
def test_fixed_release_overrides_an_inherited_rayon_num_threads(new_inherited_16: Run) -> None:
    result, run, _ = new_inherited_16
    assert result.returncode == 0, result.stdout + result.stderr
    budget = int(run["environment"]["cpu_budget"])
    for w in workers_of(run):
        info = w["target_info"]
        assert info["rayon_env_before_import"] == "16"
        assert info["rayon_env_after_import"] == str(budget)  # 0.43.1 overwrites it with its cap
        assert w["rayon_threads"] == budget


@pytest.mark.xdist_group("gvl-inherited-16")
@pytest.mark.ci_seconds(30)
def test_036_via_python_reproduces_the_setdefault_bug(old_inherited_16: Run, gvl036_python: str) -> None:
    # GIVEN 0.36.0 in a second environment and workers born with RAYON_NUM_THREADS=16, as in #263
    result, run, path = old_inherited_16
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
    md = path.joinpath("report.md").read_text()
    assert "but RAYON_NUM_THREADS=16 survived its import" in md


@pytest.mark.xdist_group("gvl-wedge")
@pytest.mark.ci_seconds(25)
def test_036_wedges_its_executor_when_a_worker_dies_sending_a_big_result(
    report_dir: Path, gvl036_python: str
) -> None:
    # GIVEN real 0.36.0 workers returning 64 MiB each, one SIGKILLed while it sends (#263's shape)
    result, run, _ = gvl_run(
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


@pytest.mark.xdist_group("gvl-fork")  # with tests/test_shrink_gvl_e2e.py, which shrinks the same run
@pytest.mark.ci_seconds(60)
def test_036_a_loader_child_forked_after_the_pool_hangs_and_is_named(gvl036_fork_run: GvlRun) -> None:
    # GIVEN real 0.36.0 workers that run one batch, then take batches from a loader child
    # forked after their pool started (tests/conftest.py)
    result, report_dir = gvl036_fork_run
    assert result.returncode == 1, result.stdout + result.stderr
    (wave,) = load_run(report_dir)["waves"]
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


@pytest.mark.xdist_group("gvl-forkserver")
@pytest.mark.ci_seconds(30)
def test_036_a_loader_child_started_by_forkserver_does_not_hang(report_dir: Path, gvl036_python: str) -> None:
    # GIVEN the same workers, their loader child started by forkserver (the control: a fresh
    # process has a pool of its own)
    result, run, _ = gvl_run(
        report_dir, "--python", gvl036_python, "--rayon", "4", "--iterations", "4", "--timeout", "120",
        "-o", "loader=forkserver", "-o", f"version={OLD}",
    )  # fmt: skip
    # THEN no worker hangs
    assert result.returncode == 0, result.stdout + result.stderr
    (wave,) = run["waves"]
    assert {w["verdict"] for w in wave["workers"]} <= {"ok", "slow"}


@pytest.mark.xdist_group("gvl-threaded")
@pytest.mark.ci_seconds(30)
def test_threaded_mode_runs_python_work_beside_the_loader(old_threaded_expecting_new: Run) -> None:
    result, run, _ = old_threaded_expecting_new
    assert result.returncode == 0, result.stdout + result.stderr
    for w in workers_of(run):
        assert w["target_info"]["mode"] == "threaded"
        assert w["target_info"]["gil_work_rounds"] > 0
        assert_parallel_path(w, 8)


@pytest.mark.xdist_group("gvl-threaded")
def test_a_version_mismatch_is_warned_about(old_threaded_expecting_new: Run) -> None:
    result, run, _ = old_threaded_expecting_new
    assert result.returncode == 0, result.stdout + result.stderr
    assert "scenario expects genvarloader 0.43.1, but workers imported 0.36.0" in run["warnings"]
    assert "warning: scenario expects genvarloader 0.43.1" in result.stdout


@pytest.mark.xdist_group("gvl-16-threads")
def test_missing_genvarloader_is_an_environment_problem(report_dir: Path) -> None:
    bare = "/usr/bin/python3"
    if not Path(bare).exists():
        pytest.skip("needs an interpreter without genvarloader")
    result = run_cli(
        ["run", "--target", "genvarloader", "--python", bare, "--report-dir", str(report_dir)], timeout=120
    )
    assert result.returncode == 4
    assert result.stderr.strip().startswith(f"gvlstress: error: genvarloader is not installed for {bare}")


@pytest.mark.xdist_group("gvl-inherited-16")
def test_compare_two_real_runs(tmp_path: Path, old_inherited_16: Run, new_inherited_16: Run) -> None:
    old, new = old_inherited_16, new_inherited_16
    assert old.result.returncode == new.result.returncode == 0
    out = tmp_path / "cmp.md"
    result = run_cli(
        [
            "compare",
            str(old.path),
            str(new.path),
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


@pytest.mark.xdist_group("gvl-cold-cache")
@pytest.mark.ci_seconds(45)
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


@pytest.mark.xdist_group("gvl-cold-scenario")
@pytest.mark.ci_seconds(20)
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
