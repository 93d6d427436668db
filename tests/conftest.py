"""Shared helpers: run the CLI in a subprocess, read run.json, wait on /proc facts (never sleep);
the interpreter of the genvarloader 0.36.0 environment (slow tests)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import psutil
import pytest

pytest_plugins = ["pytester", "tiers", "scheduling"]

ROOT = Path(__file__).resolve().parent.parent
SUPPORT = Path(__file__).resolve().parent / "support"


def pytest_configure(config: pytest.Config) -> None:
    """Stop early with a clear message when the native fixture is not built."""
    try:
        import gvlstress_native  # noqa: F401
    except ImportError:
        pytest.exit("gvlstress_native is not installed: run `pip install ./native` first", returncode=4)


GVL = (sys.executable, "-m", "gvlstress")
"""The CLI as every test starts it (``[*GVL, "watch", ...]``): this interpreter, so the checkout's code."""


def cli_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("RAYON_NUM_THREADS", None)
    env["PYTHONPATH"] = os.pathsep.join([str(SUPPORT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env


def run_cli(
    args: list[str], timeout: float = 240, cwd: Path = ROOT, **env: str
) -> subprocess.CompletedProcess[str]:
    """`python -m gvlstress ARGS` in a subprocess, so a hang cannot take pytest down."""
    return subprocess.run(
        [*GVL, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=cli_env(**env),
        cwd=cwd,
        check=False,
    )


def run_in_own_group(argv: list[str], timeout: float, **kw: Any) -> subprocess.CompletedProcess[str]:
    """`subprocess.run` for a program that starts processes of its own: it gets a process group
    of its own, and on the deadline the whole group is killed, not only the program (its workers
    would outlive the test)."""
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, **kw
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)
        raise
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # what it left behind on its way out
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def cli_run(args: list[str], code: int, report_dir: Path, timeout: float = 240, **env: str) -> dict[str, Any]:
    """Run the CLI, check its exit code (showing its output when it differs), load run.json."""
    result = run_cli([*args, "--report-dir", str(report_dir)], timeout=timeout, cwd=ROOT, **env)
    assert result.returncode == code, result.stdout + result.stderr
    return load_run(report_dir)


def load_run(report_dir: Path) -> dict[str, Any]:
    """The one run.json under `report_dir`, each worker's capture read from the file it names."""
    runs = sorted(report_dir.glob("*/run.json"))
    assert len(runs) == 1, f"expected one run.json under {report_dir}, found {runs}"
    return read_run(runs[0].parent)


def read_run(run_dir: Path) -> dict[str, Any]:
    """A run directory's run.json, each worker's capture read from the file it names."""
    data: dict[str, Any] = json.loads((run_dir / "run.json").read_text())
    for wave in data["waves"]:
        for w in wave["workers"]:
            if isinstance(w.get("capture"), str):
                w["capture"] = json.loads((run_dir / w["capture"]).read_text())
    return data


def workers_of(run: dict[str, Any]) -> list[dict[str, Any]]:
    return [w for wave in run["waves"] for w in wave["workers"]]


def wait_for(predicate: Callable[[], Any], timeout: float, what: str, every: float = 0.05) -> Any:
    """Poll `predicate` until it returns something truthy; fail with `what` after `timeout`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(every)  # polling interval of a fact check, not a synchronisation by sleep
    pytest.fail(f"timed out after {timeout}s waiting for {what}")


def spawned_workers(parent: psutil.Process, min_threads: int) -> list[int]:
    """The harness's spawned workers that have at least `min_threads` threads (their pool is up).
    Short-lived helpers (a tool-version check, the watchdog) come and go and are skipped."""
    out = []
    for c in parent.children():
        try:
            if "spawn_main" in " ".join(c.cmdline()) and c.num_threads() >= min_threads:
                out.append(c.pid)
        except psutil.Error:
            continue
    return out


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def all_gone(pids: list[int]) -> bool:
    """Every one of these processes exited (a zombie counts: it no longer runs)."""
    return not any(alive(p) for p in pids)


def all_parked_on_futex(pid: int, min_threads: int) -> bool:
    """The fact a hung fixture shows: every thread asleep in a futex wait."""
    from gvlstress.probes import procfs

    s = procfs.sample(pid)
    if s is None or len(s.threads) < min_threads:
        return False
    return all(t.state == "S" and t.futex_addr is not None for t in s.threads)


GVL036 = "0.36.0"
"""The genvarloader release with #263's bugs, in an environment of its own (`gvl036_python`)."""


@pytest.fixture(scope="session")
def gvl036_python() -> str:
    """An interpreter with genvarloader 0.36.0 (a venv made here once, then reused, under
    GVLSTRESS_CACHE or ~/.cache/gvlstress/venvs); it has no gvlstress."""
    from gvlstress.system.cache import cache_root

    venv = cache_root() / "venvs" / f"gvl-{GVL036}"
    python = venv / "bin" / "python"
    probe = [
        str(python),
        "-c",
        f"import importlib.metadata as m; assert m.version('genvarloader') == '{GVL036}'",
    ]
    if (
        python.exists()
        and subprocess.run(probe, capture_output=True, timeout=120, check=False).returncode == 0
    ):
        return str(python)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True, timeout=300)
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", f"genvarloader=={GVL036}"], check=True, timeout=1500
    )
    subprocess.run(probe, check=True, timeout=120)
    return str(python)


class GvlRun(NamedTuple):
    result: subprocess.CompletedProcess[str]
    report_dir: Path


@pytest.fixture(scope="session")
def gvl036_fork_run(tmp_path_factory: pytest.TempPathFactory, gvl036_python: str) -> GvlRun:
    """One run of 2 genvarloader 0.36.0 workers whose loader child is forked after their rayon
    pool started (#263's mechanism A): it hangs. Read by tests/test_genvarloader_e2e.py (the
    verdict and how it is named) and shrunk by tests/test_shrink_gvl_e2e.py: both in one xdist
    group, so CI makes it once. Each test checks its exit code."""
    report_dir = tmp_path_factory.mktemp("gvl036-fork")
    result = run_cli(
        ["run", "--target", "genvarloader", "--python", gvl036_python, "--rayon", "4", "--iterations", "4",
         "--timeout", "120", "-o", "loader=fork", "-o", f"version={GVL036}", "--workers", "2", "--waves", "1",
         "--report-dir", str(report_dir)],
        timeout=900,
    )  # fmt: skip
    return GvlRun(result, report_dir)


@pytest.fixture
def report_dir(tmp_path: Path) -> Path:
    return tmp_path / "reports"
