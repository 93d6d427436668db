"""The tier check (tests/tiers.py) on a suite of its own, run by pytest in a subprocess: a fast
test that starts a process in any way fails, a slow one that starts none fails, a fixture's
process counts for every test that uses it, and the stop-at-first-process probe finds the
pure slow test."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

SUITE = """
import multiprocessing
import os
import subprocess
import sys

import pytest


def test_pure():
    assert sorted([2, 1]) == [1, 2]


def test_popen_unmarked():
    subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=60)


def test_fork_unmarked():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)


def test_spawn_unmarked():
    child = multiprocessing.get_context("spawn").Process(target=os.getpid)
    child.start()
    child.join(60)


@pytest.fixture(scope="module")
def child_output():
    return subprocess.run([sys.executable, "-c", "print(1)"], capture_output=True, check=True, timeout=60).stdout


@pytest.mark.slow
def test_slow_first_user_of_the_fixture(child_output):
    assert child_output


@pytest.mark.slow
def test_slow_later_user_of_the_fixture(child_output):
    assert child_output


def test_fast_user_of_the_fixture(child_output):
    assert child_output


@pytest.mark.slow
def test_slow_but_pure():
    assert True


@pytest.mark.slow
def test_slow_popen():
    subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=60)
"""


def outcomes(stdout: str) -> dict[str, str]:
    """`test name -> PASSED/FAILED/ERROR` from the short summary of an `-rA` run."""
    got = {}
    for line in stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASSED", "FAILED", "ERROR") and "::" in rest:
            got[rest.split("::")[1].split(" ")[0]] = word
    return got


def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *args: str) -> dict[str, str]:
    """The suite above under `pytest -p tiers ARGS` in a subprocess: each test's outcome."""
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parent))  # where tiers.py is
    pytester.makeini("[pytest]\nmarkers =\n    slow: starts a process\n")
    pytester.makepyfile(test_suite=SUITE)
    result = pytester.runpytest_subprocess("-p", "tiers", "-p", "no:cacheprovider", "-rA", *args, timeout=240)
    return outcomes(result.stdout.str())


def test_each_side_of_the_line_fails_a_test_on_the_wrong_side(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    got = run(pytester, monkeypatch)
    assert got == {
        "test_pure": "PASSED",
        "test_popen_unmarked": "FAILED",
        "test_fork_unmarked": "FAILED",
        "test_spawn_unmarked": "FAILED",
        "test_slow_first_user_of_the_fixture": "PASSED",
        "test_slow_later_user_of_the_fixture": "PASSED",
        "test_fast_user_of_the_fixture": "ERROR",
        "test_slow_but_pure": "FAILED",
        "test_slow_popen": "PASSED",
    }


def test_the_probe_stops_every_start_and_leaves_the_pure_slow_test_passing(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    got = run(pytester, monkeypatch, "-m", "slow", "--tiers-stop-at-first-process")
    assert {name for name, outcome in got.items() if outcome == "PASSED"} == {"test_slow_but_pure"}
    assert got["test_slow_popen"] == "FAILED"
