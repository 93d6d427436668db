"""The pytest plugin, driven in a subprocess (pytester) so a hang cannot take this run down: stress
runs from a test, and the watchdog on every test (``--gvlstress-watch``)."""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import subprocess
import sys

import psutil
import pytest

from conftest import all_gone, wait_for

pytestmark = pytest.mark.slow

HEALTHY = """
def test_native_loader(gvlstress):
    result = gvlstress.run(workers=2, rayon=4, waves=1, iterations=20)
    gvlstress.assert_no_hang(result)
    assert result.summary.verdict.value == "ok"
"""

HANGS = """
def test_native_loader_hangs(gvlstress):
    result = gvlstress.run(workers=2, rayon=8, waves=1, fault="lock_across_par_iter")
    gvlstress.assert_no_hang(result)
"""


def test_a_clean_run_passes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(HEALTHY)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--gvlstress-report-dir", "out")
    result.assert_outcomes(passed=1)
    assert len(list((pytester.path / "out").glob("*/run.json"))) == 1


def test_a_hang_fails_with_verdict_pattern_and_report(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(HANGS)
    # runpytest_subprocess raises if the inner pytest does not return: a wedge fails the test
    result = pytester.runpytest_subprocess("--gvlstress-report-dir", "out", timeout=180)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*gvlstress: deadlock in 1 of 1 wave of adhoc: deadlock (lock held across a parallel region)*",
            "*hint: don't hold a lock across par_iter/join*",
            "*report: out/*/report.md*",
        ]
    )
    assert len(list(pytester.path.glob("out/*/report.md"))) == 1


@pytest.mark.ci_seconds(30)
def test_report_dir_precedence_cli_env_ini(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeini("[pytest]\ngvlstress_report_dir = from-ini\n")
    pytester.makepyfile(HEALTHY)
    pytester.runpytest_subprocess().assert_outcomes(passed=1)
    assert list(pytester.path.glob("from-ini/*/run.json"))
    monkeypatch.setenv("GVLSTRESS_REPORT_DIR", "from-env")
    pytester.runpytest_subprocess().assert_outcomes(passed=1)
    assert list(pytester.path.glob("from-env/*/run.json"))
    pytester.runpytest_subprocess("--gvlstress-report-dir", "from-cli").assert_outcomes(passed=1)
    assert list(pytester.path.glob("from-cli/*/run.json"))


def test_a_bad_setting_names_its_source(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\ngvlstress_margin = soon\n")
    pytester.makepyfile(HEALTHY)
    result = pytester.runpytest_subprocess()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*gvlstress: ini option gvlstress_margin: expected a number, got 'soon'*"])


@pytest.mark.xdist_group("plugin-deadline")  # long: a group of its own (tests/scheduling.py)
@pytest.mark.ci_seconds(25)
def test_the_run_reports_before_pytest_timeout_fires(pytester: pytest.Pytester) -> None:
    # GIVEN a livelock (judged only at the launch timeout) with a 300 s scenario timeout,
    # in a test that pytest-timeout kills after 45 s (a margin of 18 s: a budget of 27 s, room
    # for the wave's 5 s floor after a start-up slowed by a loaded CI: at 30 s, 12 s of budget,
    # a start-up past 7 s left no wave to run)
    pytester.makepyfile("""
        import pytest

        @pytest.mark.timeout(45)
        def test_spins(gvlstress):
            result = gvlstress.run(workers=2, rayon=4, waves=1, fault="spin", timeout=300)
            assert any("launch timeout capped" in w for w in result.warnings)
            gvlstress.assert_no_hang(result)
    """)
    result = pytester.runpytest_subprocess("--gvlstress-margin", "18", timeout=200)
    # THEN the test fails with gvlstress's verdict, not with pytest-timeout's kill
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*gvlstress: livelock in 1 of 1 wave*livelock/spin*"])
    result.stdout.no_fnmatch_line("*Timeout*")


WATCHED = """
import os
import queue
import time

import pytest


@pytest.mark.timeout(20)
def test_deadlocks():
    q = queue.Queue()
    q.put("a task nobody marks done")
    q.join()


def test_slow_but_healthy():
    time.sleep(6)  # quiet past the stall: looked at, judged idle, left alone


def test_progresses(tmp_path):
    # writing all along: never looked at, so nothing ever attaches to pytest
    end = time.monotonic() + 6
    with open(tmp_path / "log", "w") as log:
        while time.monotonic() < end:
            log.write("step\\n" * 20)
            log.flush()
            with open("/proc/self/status") as status:
                assert "TracerPid:\\t0\\n" in status.read()
            time.sleep(0.1)
"""


@pytest.mark.xdist_group("plugin-watch")
@pytest.mark.ci_seconds(45)
def test_watch_reports_a_hung_test_before_pytest_timeout_fails_it(pytester: pytest.Pytester) -> None:
    # GIVEN a test that deadlocks (pytest-timeout at 20 s), a slow healthy one and a busy one
    pytester.makepyfile(WATCHED)
    # WHEN they run with a 3 s watchdog
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--gvlstress-watch", "3", "--gvlstress-report-dir", "out", timeout=180
    )
    # THEN the deadlock fails by pytest-timeout, its failure carrying the watch's verdict and report
    result.assert_outcomes(failed=1, passed=2)
    result.stdout.fnmatch_lines(
        [
            "*Failed: Timeout (>20.0s) from pytest-timeout*",
            "*- gvlstress watch -*",
            "gvlstress watch: test_watch_reports_*::test_deadlocks: deadlock (Queue.join() without "
            "task_done()) after 3s without progress",
            "*hint: call q.task_done()*",
            "  report: out/*-test_deadlocks/report.md",
            "*= gvlstress watch =*",
            "gvlstress watch: *::test_deadlocks: deadlock*",
        ]
    )
    # AND only the hung test has a report: watch's files, written well before the timeout fired
    (run_dir,) = (pytester.path / "out").iterdir()
    assert run_dir.name.endswith("test_deadlocks")
    assert {"report.md", "watch.json", "inspect.json"} <= {p.name for p in run_dir.iterdir()}
    watched = json.loads((run_dir / "watch.json").read_text())
    began = dt.datetime.fromisoformat(watched["started_at"]).timestamp()
    assert (run_dir / "inspect.json").stat().st_mtime - began < 15
    assert watched["hang"]["processes"][0]["diagnosis"]["pattern"] == "Queue.join() without task_done()"


GIL = """
import ctypes
import threading


def test_holds_the_gil_while_it_waits():
    libc = ctypes.CDLL(None)
    mutex = ctypes.create_string_buffer(64)  # a pthread_mutex_t, zeroed: a default mutex
    locked = threading.Event()

    def holder():
        libc.pthread_mutex_lock(mutex)  # a CDLL call releases the GIL
        locked.set()
        sum(range(10**6))  # Python work: needs the GIL back
        libc.pthread_mutex_unlock(mutex)

    threading.Thread(target=holder, daemon=True).start()
    locked.wait()
    ctypes.PyDLL(None).pthread_mutex_lock(mutex)  # a PyDLL call keeps it: nothing else runs
"""


def test_watch_reports_a_test_that_hangs_holding_the_gil(pytester: pytest.Pytester) -> None:
    """Nothing in pytest can run once the GIL is never released (pytest-timeout neither): the
    watchdog is a process of its own, so the report is still written, and it leaves with pytest."""
    pytester.makepyfile(GIL)
    pytester.makeini("[pytest]\ngvlstress_watch = 3\ngvlstress_report_dir = out\n")
    inner = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"],
        cwd=pytester.path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        report = wait_for(
            lambda: next((pytester.path / "out").glob("*/inspect.json"), None), 60, "the report"
        )
        helper = next(
            c.pid for c in psutil.Process(inner.pid).children() if "watch_tests" in " ".join(c.cmdline())
        )
    finally:
        os.killpg(inner.pid, signal.SIGKILL)
        _, err = inner.communicate(timeout=30)
    data = json.loads(report.read_text())
    assert data["processes"][0]["diagnosis"]["verdict"] == "deadlock"
    assert b"gvlstress watch: test_" in err  # told on pytest's terminal at once
    assert b"report: out/" in err
    wait_for(lambda: all_gone([helper]), 30, "the watchdog helper to leave with pytest")
    assert (report.parent / "watch.json").exists()


def test_the_watch_setting_comes_from_the_environment_and_a_bad_one_names_its_source(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile("def test_x():\n    pass\n")
    monkeypatch.setenv("GVLSTRESS_WATCH", "0.5")
    result = pytester.runpytest_subprocess()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*gvlstress: environment variable GVLSTRESS_WATCH: 0 (off) or at least 1 second, got '0.5'*"]
    )


@pytest.mark.ci_seconds(20)
def test_the_plugin_named_with_p_loads_once_beside_its_entry_point(pytester: pytest.Pytester) -> None:
    # GIVEN a test run that names the plugin by module as well (the entry point loads it too)
    pytester.makepyfile("def test_one(gvlstress):\n    assert gvlstress is not None\n")
    for args in (("-p", "gvlstress.pytest_plugin"), ("-p", "gvlstress"), ()):
        # WHEN pytest starts THEN it runs the test, with the plugin's options and fixture, once
        result = pytester.runpytest_subprocess(
            *args, "-p", "no:cacheprovider", "--gvlstress-watch", "0", timeout=120
        )
        assert result.ret == 0, (args, result.stderr.str())
        result.assert_outcomes(passed=1)
