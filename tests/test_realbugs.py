"""The real-bug catalogue through `selftest --real`: documented hangs, caught and named while they
hang (a deadlock, or a livelock for a spin), and their documented fixes clean, the command's
report and its clean-up. Here one entry of every shape runs through the command; every entry's
name (by inspect --tree, run's look and watch) is checked in tests/test_agreement.py, and every
control under watch in tests/test_watch.py, so each trigger is not launched a third time. Those
with pins of their own, or a CPython of their own, run whole under `pytest -m pypi`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import psutil
import pytest

from conftest import run_cli
from gvlstress.controls.realbugs import BUGS_DIR, CATALOGUE
from gvlstress.model.controls import SHAPES
from gvlstress.probes.interpreter import satisfied

HERE = tuple(b.name for b in CATALOGUE if satisfied((*b.packages, *(b.control_packages or ())), b.python))
"""Entries this test environment runs as is (the rest need a venv: `pytest -m pypi`)."""
ELSEWHERE = tuple(b.name for b in CATALOGUE if b.name not in HERE)

pytestmark = [pytest.mark.slow, pytest.mark.alone, pytest.mark.timeout(600)]  # /dev/shm


def _ours() -> list[int]:
    """Processes still running a catalogue program."""
    out = []
    for p in psutil.process_iter():
        try:
            if any(str(BUGS_DIR) in a or "pthread_mutex_lock(m)" in a for a in p.cmdline()):
                out.append(p.pid)
        except psutil.Error:
            continue
    return out


ONE_OF_EACH_SHAPE = tuple(
    dict.fromkeys(next(b.name for b in CATALOGUE if b.shape == shape and b.name in HERE) for shape in SHAPES)
)


def test_one_real_bug_of_each_shape_is_caught_and_named_and_its_control_is_clean(report_dir: Path) -> None:
    assert check_catalogue(report_dir, ONE_OF_EACH_SHAPE) == list(ONE_OF_EACH_SHAPE)


@pytest.mark.pypi
@pytest.mark.timeout(1800)
def test_the_entries_with_their_own_pinned_packages(report_dir: Path) -> None:
    """Builds each entry's venv once in the cache (pip downloads its pins), then as above."""
    assert check_catalogue(report_dir, ELSEWHERE, timeout=1700) == list(ELSEWHERE)


def check_catalogue(report_dir: Path, names: tuple[str, ...], timeout: float = 540) -> list[str]:
    """Run the entries `names` through the CLI; check each was caught, named and its control
    clean, and that nothing was left behind; return the entries the report lists."""
    assert names
    sems = set(os.listdir("/dev/shm"))
    only = [a for n in names for a in ("--only", n)]
    result = run_cli(["selftest", "--real", *only, "--report-dir", str(report_dir)], timeout=timeout)
    (path,) = report_dir.glob("*/selftest-real.json")
    data = json.loads(path.read_text())
    entries = {e["name"]: e for e in data["entries"]}
    ran = {n: e for n, e in entries.items() if e["skipped"] is None}
    skipped = {n: e["skipped"] for n, e in entries.items() if e["skipped"] is not None}
    # only a host without gcc's OpenMP runtime, or without an entry's CPython (pyenv's X.Y), skips
    assert all(n == "libgomp-fork" or why.startswith("no CPython") for n, why in skipped.items()), skipped
    for name, e in ran.items():
        assert (e["verdict"], e["pattern"]) == (e["expected_verdict"], e["expected_pattern"]), (
            name,
            e["summary"],
            e["error"],
        )
        assert e["control_clean"] is True, (name, e["control_note"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "every real bug caught and named; every control clean" in result.stdout
    md = path.with_name("selftest-real.md").read_text()
    assert all(b.source.split()[0] in md for b in CATALOGUE if b.name in names)
    # nothing it started outlives it: no trigger, no child, no semaphore a dead program leaked
    assert _ours() == []
    assert set(os.listdir("/dev/shm")) - sems == set()
    return list(entries)


def test_only_runs_the_named_entries_and_a_wrong_name_is_a_usage_error(report_dir: Path) -> None:
    ok = run_cli(["selftest", "--real", "--only", "queue-join-no-task-done", "--report-dir", str(report_dir)])
    assert ok.returncode == 0, ok.stdout + ok.stderr
    (path,) = report_dir.glob("*/selftest-real.json")
    assert [e["name"] for e in json.loads(path.read_text())["entries"]] == ["queue-join-no-task-done"]
    wrong = run_cli(["selftest", "--real", "--only", "healthy", "--report-dir", str(report_dir)])
    assert wrong.returncode == 2
    assert "not an entry of the real-bug catalogue" in wrong.stderr
    assert "Traceback" not in wrong.stderr
