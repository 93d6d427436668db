"""Explaining real hangs: reports, stacks, futex groups, secrets, missing tools, inspect, doctor.

Every hang here is a live native-fixture process (lock_across_par_iter), never a recording.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, alive, all_parked_on_futex, cli_env, load_run, run_cli, wait_for, workers_of

SECRETS = {
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY",
    "HF_TOKEN": "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345",
    "GVL_API_TOKEN": "gvl-secret-0123456789",
    "GVL_CACHE_URL": "https://alice:hunter2pass@cache.invalid/data",
    "OMP_LICENSE": "sk_live_51HnYvKLmNoPqRsTuVwXyZ0123",
}


def run_lock(
    report_dir: Path, *extra: str, workers: int = 2, **env: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    result = run_cli(
        [
            "run",
            "--workers",
            str(workers),
            "--rayon",
            "16",
            "--waves",
            "1",
            "--fault",
            "lock_across_par_iter",
            "--timeout",
            "60",
            "--report-dir",
            str(report_dir),
            *extra,
        ],
        # run_cli's defaults, named so that mypy cannot take **env for these parameters
        timeout=240,
        cwd=ROOT,
        **env,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    return result, load_run(report_dir)


@pytest.fixture(scope="module")
def lock_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """One real 2 x 16 lock_across_par_iter hang, with secrets planted in the environment."""
    report_dir = tmp_path_factory.mktemp("lock") / "reports"
    _, run = run_lock(report_dir, workers=2, **SECRETS)
    return next(report_dir.iterdir()), run


@pytest.mark.slow
def test_diagnosis_names_the_pool_threads_grouped_on_one_futex(lock_run: tuple[Path, dict[str, Any]]) -> None:
    _, run = lock_run
    for w in workers_of(run):
        d = w["diagnosis"]
        assert d["verdict"] == "deadlock"
        pool, caller = d["groups"]
        assert len(pool["tids"]) == 16
        assert pool["names"] == ["16 rayon pool threads"]
        assert pool["blocked_in"].endswith("Mutex::lock_contended")
        assert caller["tids"] == [w["pid"]]
        assert caller["names"] == ["1 main thread"]
        assert caller["blocked_in"] == "rayon_core::latch::LockLatch::wait_and_reset"
        assert d["gil_owner"] is None
        assert "no thread holds the GIL" in d["evidence"]
        assert d["missing"] == []
        # every OS thread is there with its native stack, not only the interpreter's one
        threads = w["capture"]["threads"]
        assert len(threads) == 17
        pool_threads = [t for t in threads if t["tid"] in pool["tids"]]
        assert all(
            any(f["name"] == "rayon_core::registry::ThreadBuilder::run" for f in t["native"])
            for t in pool_threads
        )
        assert [t for t in threads if t["python"]] == [t for t in threads if t["tid"] == w["pid"]]


@pytest.mark.slow
def test_report_md_is_a_pasteable_bug_report(lock_run: tuple[Path, dict[str, Any]]) -> None:
    run_dir, run = lock_run
    md = (run_dir / "report.md").read_text()
    for heading in (
        "## Environment",
        "## Configuration",
        "## Waves",
        "## Diagnosis",
        "## Thread-cap audit",
        "## Stacks of hung workers",
        "## Reproduce",
    ):
        assert heading in md
    assert "**1 of 1 wave hung** (2 deadlock workers), after 0 batches" in md
    # identical stacks grouped and collapsed: per worker the pool groups add up to 16 on one address
    for w in workers_of(run):
        pool = w["diagnosis"]["groups"][0]["addr"]
        counts = re.findall(rf"<summary>(\d+) rayon pool threads? \(S on futex {pool}\)", md)
        assert sum(map(int, counts)) == 16
        assert len(counts) < 16
    assert "rayon_core::registry::ThreadBuilder::run" in md
    assert "2 workers x 16 rayon threads" in md
    assert "oversubscribed" in md
    assert "gvlstress run --workers 2 --rayon 16" in md
    assert md.count("<details>") == md.count("</details>")


@pytest.mark.slow
def test_junit_has_one_failed_case_per_hung_wave(lock_run: tuple[Path, dict[str, Any]]) -> None:
    run_dir, _ = lock_run
    suite = ET.parse(run_dir / "junit.xml").getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("1", "1", "0")
    failure = suite.find("testcase/failure")
    assert failure is not None
    assert (failure.get("message") or "").startswith(
        "wave 1: deadlock (2 of 2 workers): deadlock (lock held across a parallel region): 16 thread(s)"
    )
    assert "report.md" in (failure.text or "")


@pytest.mark.slow
def test_raw_dumps_next_to_the_report(lock_run: tuple[Path, dict[str, Any]]) -> None:
    run_dir, run = lock_run
    for w in workers_of(run):
        d = run_dir / "workers" / f"wave1-slot{w['slot']}-pid{w['pid']}"
        assert len(json.loads((d / "proc.json").read_text())["samples"]) == 2
        assert json.loads((d / "pyspy.json").read_text())[0]["os_thread_id"] == w["pid"]
        # one thread header per OS thread, in whichever backend's format ran
        header = {"pystack": "Traceback for thread ", "eu-stack": "TID ", "gdb": "\nThread "}
        tool = w["capture"]["native"]["tool"]
        assert ("\n" + (d / "native.txt").read_text()).count(header[tool]) == 17


@pytest.mark.slow
def test_no_secret_reaches_any_file_of_the_run(lock_run: tuple[Path, dict[str, Any]]) -> None:
    run_dir, run = lock_run
    files = [p for p in run_dir.rglob("*") if p.is_file()]
    assert len(files) >= 9
    for path in files:
        text = path.read_text(errors="replace")
        for name, value in SECRETS.items():
            assert value not in text, f"{name} leaked into {path}"
            assert "hunter2" not in text
    knobs = run["environment"]["thread_knobs"]
    assert "AWS_SECRET_ACCESS_KEY" not in knobs
    assert "HF_TOKEN" not in knobs
    assert knobs["GVL_API_TOKEN"] == knobs["GVL_CACHE_URL"] == knobs["OMP_LICENSE"] == "<redacted>"


@pytest.mark.slow
def test_report_renders_again_from_run_json(lock_run: tuple[Path, dict[str, Any]]) -> None:
    run_dir, _ = lock_run
    before = (run_dir / "report.md").read_text()
    refused = run_cli(["report", str(run_dir)], timeout=60)
    assert refused.returncode == 2
    assert "add --force" in refused.stderr
    again = run_cli(["report", str(run_dir), "--force"], timeout=60)
    assert again.returncode == 0, again.stderr
    assert (run_dir / "report.md").read_text() == before


@pytest.mark.slow
def test_report_of_a_non_run_dir_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "run.json").write_text('{"schema": "other"}')
    result = run_cli(["report", str(tmp_path)], timeout=60)
    assert result.returncode == 2
    assert "not a gvlstress.run/3 file" in result.stderr


@pytest.mark.slow
def test_without_pyspy_or_native_tools_the_proc_verdict_stands(tmp_path: Path) -> None:
    _, run = run_lock(
        tmp_path, workers=1, GVLSTRESS_PYSPY="/nonexistent/py-spy", GVLSTRESS_NATIVE_TOOL="none"
    )
    (w,) = workers_of(run)
    assert w["verdict"] == "deadlock"
    d = w["diagnosis"]
    assert len(d["groups"][0]["tids"]) == 16
    assert any(m.startswith("py-spy: py-spy not found") for m in d["missing"])
    assert any(m.startswith("native: native stacks unavailable") for m in d["missing"])
    md = next(tmp_path.iterdir()).joinpath("report.md").read_text()
    assert "missing view: py-spy: py-spy not found" in md
    assert "GIL owner unknown (py-spy view missing)" in md


def start_hung_fixture(rayon: int) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "gvlstress_native", "--fault", "lock_across_par_iter", "--rayon", str(rayon)],
        stdout=subprocess.PIPE,
        text=True,
        env=cli_env(),
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith(f"pid {proc.pid}")
    wait_for(lambda: all_parked_on_futex(proc.pid, rayon + 1), 30, "the fixture to hang")
    return proc


@pytest.mark.slow
@pytest.mark.parametrize("tool", ["pystack", "eu-stack", "gdb"])
def test_inspect_a_hung_process_explains_it_and_leaves_it_alive(tmp_path: Path, tool: str) -> None:
    from gvlstress.probes import tools

    if tools.find(tool) is None:
        pytest.skip(f"{tool} is not installed (.ci/run installs it)")
    proc = start_hung_fixture(8)
    try:
        result = run_cli(
            ["inspect", str(proc.pid), "--report-dir", str(tmp_path)], timeout=120, GVLSTRESS_NATIVE_TOOL=tool
        )
        assert result.returncode == 1, result.stdout + result.stderr
        assert alive(proc.pid)
        (run_dir,) = tmp_path.iterdir()
        data = json.loads((run_dir / "inspect.json").read_text())
        (p,) = data["processes"]
        pool = p["diagnosis"]["groups"][0]
        assert len(pool["tids"]) == 8
        assert pool["names"] == ["8 rayon pool threads"]
        assert "lock_contended" in pool["blocked_in"]
        assert p["capture"]["native"]["tool"] == tool
        counts = re.findall(
            r"<summary>(\d+) rayon pool threads? \(S on futex", (run_dir / "report.md").read_text()
        )
        assert sum(map(int, counts)) == 8
    finally:
        proc.kill()
        proc.wait(10)


@pytest.mark.slow
def test_inspect_tree_covers_the_children(tmp_path: Path) -> None:
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys; subprocess.run([sys.executable, '-m', 'gvlstress_native',"
            " '--fault', 'lock_across_par_iter', '--rayon', '2'], stdout=subprocess.DEVNULL)",
        ],
        env=cli_env(),
    )
    try:
        import psutil

        child = wait_for(lambda: next(iter(psutil.Process(parent.pid).children()), None), 30, "the child")
        wait_for(lambda: all_parked_on_futex(child.pid, 3), 30, "the child to hang")
        result = run_cli(["inspect", str(parent.pid), "--tree", "--report-dir", str(tmp_path)], timeout=120)
        assert result.returncode == 1, result.stdout + result.stderr
        data = json.loads(next(tmp_path.iterdir()).joinpath("inspect.json").read_text())
        kinds = {p["pid"]: p["finding"]["kind"] for p in data["processes"]}
        assert kinds[child.pid] == "deadlock"
        assert set(kinds) == {parent.pid, child.pid}
    finally:
        for c in psutil.Process(parent.pid).children(recursive=True):
            c.kill()
        parent.kill()
        parent.wait(10)


@pytest.mark.slow
def test_inspect_rejects_a_missing_pid(tmp_path: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait(10)
    result = run_cli(["inspect", str(gone.pid), "--report-dir", str(tmp_path)], timeout=60)
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == f"gvlstress: error: no process with pid {gone.pid} (hint: check the pid (ps -ef))"
    )


@pytest.mark.slow
def test_doctor_passes_here_and_fails_without_pyspy() -> None:
    ok = run_cli(["doctor"], timeout=120)
    assert ok.returncode == 0, ok.stdout
    assert "py-spy attach" in ok.stdout
    assert "native stacks" in ok.stdout
    missing = run_cli(["doctor"], timeout=120, GVLSTRESS_PYSPY="/nonexistent/py-spy")
    assert missing.returncode == 4
    assert "not found" in missing.stdout
    assert "pip install py-spy" in missing.stdout
    assert ROOT.exists()


def test_committed_example_matches_the_current_report_format() -> None:
    """reports/examples/ must be regenerated when the format changes (docs/reading-a-report.md says how)."""
    from gvlstress import store
    from gvlstress.reporters import markdown

    example = ROOT / "reports" / "examples" / "lock-across-par-iter"
    result = store.read(example)
    assert result.summary.verdict.value == "deadlock"
    assert markdown.render(result) == (example / "report.md").read_text()
