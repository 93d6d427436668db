"""Containment: every process a wave started, at any depth, daemonized or not, is gone when the
wave ends, healthy or hung, and when the harness dies; the tools' leftovers too."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil
import pytest

from conftest import GVL, ROOT, all_gone, cli_env, load_run, run_cli, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.alone]  # every semaphore in /dev/shm


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _recorded(out: Path) -> list[int]:
    return [int(x) for f in sorted(out.glob("pids-*")) for x in f.read_text().split()]


def _ours_in_cgroups(harness: int) -> list[Path]:
    root = Path("/sys/fs/cgroup")
    return [d for d in root.glob(f"*/gvlstress-{harness}-*") if d.is_dir()] + list(
        root.glob(f"gvlstress-{harness}-*")
    )


@pytest.mark.parametrize("start_method", ["spawn", "forkserver"])
@pytest.mark.parametrize("mode", ["plain", "daemon"])
def test_what_a_healthy_wave_started_is_gone_when_it_ends(
    tmp_path: Path, report_dir: Path, mode: str, start_method: str
) -> None:
    # GIVEN a target whose workers start a child (plain) or a grandchild that daemonizes itself
    r = run_cli(
        ["run", "--target", "spawner:batches", "-o", f"mode={mode}", "-o", f"out={tmp_path}",
         "--workers", "2", "--waves", "2", "--iterations", "2", "--start-method", start_method,
         "--report-dir", str(report_dir)],
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    # THEN when the run is over none of them runs, and each wave says how many it killed
    pids = _recorded(tmp_path)
    assert len(pids) == 4
    wait_for(lambda: all(_gone(p) for p in pids), 10, "every process the workers started to be gone")
    run = load_run(report_dir)
    assert [w["leftovers"] for w in run["waves"]] == [2, 2]


def test_a_hung_wave_with_a_daemonized_grandchild_ends_and_the_harness_exits(
    tmp_path: Path, report_dir: Path
) -> None:
    # GIVEN a worker that daemonizes a grandchild, then hangs
    r = run_cli(
        ["run", "--target", "spawner:batches", "-o", "mode=daemon", "-o", f"out={tmp_path}", "-o", "hang=true",
         "--workers", "1", "--waves", "1", "--stall", "1", "--timeout", "60", "--report-dir", str(report_dir)],
        timeout=120,
    )  # fmt: skip
    # THEN the hang is reported, the harness exits on its own, and the grandchild is gone
    assert r.returncode == 1, r.stdout + r.stderr
    assert (next(report_dir.glob("*")) / "report.md").is_file()
    (pid,) = _recorded(tmp_path)
    wait_for(lambda: _gone(pid), 10, "the daemonized grandchild to be gone")


def test_a_tool_that_double_forks_leaves_nothing_behind(tmp_path: Path, report_dir: Path) -> None:
    # GIVEN a py-spy on PATH whose every run leaves a daemon behind, holding its output pipe
    pidfile = tmp_path / "daemons"
    fake = tmp_path / "py-spy"
    fake.write_text(f"#!/bin/sh\nsetsid sh -c 'echo $$ >> {pidfile}; exec sleep 300' &\necho \"[]\"\n")
    fake.chmod(0o755)
    r = run_cli(
        ["run", "--fault", "lock_across_par_iter", "--workers", "2", "--rayon", "2", "--waves", "1",
         "--report-dir", str(report_dir)],
        GVLSTRESS_PYSPY=str(fake),
    )  # fmt: skip
    assert r.returncode == 1, r.stdout + r.stderr
    # THEN it ran (once per hung worker at least), and none of what it left runs on
    daemons = [int(x) for x in pidfile.read_text().split()]
    assert len(daemons) >= 2
    wait_for(lambda: all(_gone(p) for p in daemons), 10, "the tool's daemons to be gone")


@pytest.mark.skipif(os.geteuid() != 0, reason="the wave's cgroups need root (or a delegated cgroup)")
def test_a_killed_process_group_leaves_no_cgroup_and_no_semaphore(tmp_path: Path) -> None:
    # GIVEN a harness in the middle of a run, with its workers in the wave's cgroup
    before = {p.name for p in Path("/dev/shm").glob("sem.mp-*")}
    harness = subprocess.Popen(
        [*GVL, "run", "--target", "spawner:batches", "-o", "mode=daemon",
         "-o", f"out={tmp_path}", "-o", "hang=true", "--workers", "2", "--waves", "1", "--stall", "100",
         "--timeout", "200", "--report-dir", str(tmp_path / "r")],
        env=cli_env(), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(lambda: len(_recorded(tmp_path)) == 2, 60, "both workers to daemonize a grandchild")
        assert _ours_in_cgroups(harness.pid)
        watchdog = next(
            p
            for p in psutil.process_iter(["cmdline"])
            if "gvlstress.system.watchdog" in " ".join(p.info["cmdline"] or [])
            and str(harness.pid) in (p.info["cmdline"] or [])
        )
        # WHEN its whole process group is SIGKILLed (resource tracker included)
        os.killpg(harness.pid, signal.SIGKILL)
        harness.wait(10)
        watchdog.wait(30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(harness.pid, signal.SIGKILL)
    # THEN the watchdog killed the daemonized grandchildren, removed the cgroups and unlinked
    # the run's semaphores
    assert all(_gone(p) for p in _recorded(tmp_path))
    assert _ours_in_cgroups(harness.pid) == []
    left = {p.name for p in Path("/dev/shm").glob("sem.mp-*")} - before
    assert _unmapped(left) == set()  # (a semaphore some live process maps is not this run's)


def _unmapped(names: set[str]) -> set[str]:
    """Those of the semaphores no live process has mapped (what a dead run leaves behind)."""
    mapped: set[str] = set()
    for maps in Path("/proc").glob("[0-9]*/maps"):
        with contextlib.suppress(OSError):
            mapped |= {
                line.rsplit("/", 1)[1] for line in maps.read_text().splitlines() if "/dev/shm/sem." in line
            }
    return names - mapped


GRAND = """
import os, subprocess, threading

def batches(out="", slot=0):
    child = subprocess.Popen(["sleep", "300"], start_new_session=True)  # leaves every group
    with open(os.path.join(out, f"grand-{slot}"), "w") as fh:
        fh.write(f"{os.getpid()} {child.pid}")
    yield b"x"
    threading.Event().wait()  # then wait forever, quietly
"""


def test_workers_and_their_children_die_with_a_sigkilled_harness(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess

    from conftest import cli_env

    (tmp_path / "grand.py").write_text(GRAND)
    harness = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "run",
            "--target",
            "grand:batches",
            "-o",
            f"out={tmp_path}",
            "--workers",
            "2",
            "--waves",
            "1",
            "--iterations",
            "5",
            "--stall",
            "100",
            "--timeout",
            "200",
            "--report-dir",
            str(tmp_path / "r"),
        ],
        cwd=tmp_path,
        env=cli_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        files = wait_for(
            lambda: len(list(tmp_path.glob("grand-*"))) == 2 and list(tmp_path.glob("grand-*")),
            60,
            "both workers to start a grandchild",
        )
        pids = [int(x) for f in files for x in f.read_text().split()]
        assert not all_gone(pids)
        stderr_dirs = [
            p
            for p in Path(tempfile.gettempdir()).glob("gvlstress-stderr-*")
            if any((p / f"{pid}.stderr").exists() for pid in pids)
        ]
        assert stderr_dirs  # the run's scratch directory, which a SIGKILL skips cleaning
        os.kill(harness.pid, signal.SIGKILL)
        harness.wait(10)
        wait_for(lambda: all_gone(pids), 5, "workers and their session-leaving children to be killed")
        wait_for(lambda: not any(p.exists() for p in stderr_dirs), 5, "the scratch directory to be removed")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(harness.pid, signal.SIGKILL)
