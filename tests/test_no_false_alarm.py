"""No false alarm in the field (issue 42): a healthy job whose pool's workers compute past the
stall is never called a hang, under ``watch --on-hang kill`` and the pytest plugin, alone and
beside two CPU burners. Before, its launcher was judged from its workers' first finding ("no
progress but CPU burnt") instead of their final judgement (``busy``): "deadlock (unrecognised
deadlock)", and the job was killed.

The wider gate (forty-odd healthy programs of real data, ML and CI shapes) is
`tests/test_field.py`; the rule itself is table-tested in `tests/test_final_judgements.py`."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import pytest

from test_watch import JOBS, burners, watch

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

SHAPES = ["pool-compute", "executor-numpy"]


# Each test below is an xdist group of its own (tests/scheduling.py): one file would keep a CI
# worker busy for minutes.
@pytest.mark.xdist_group("no-false-alarm-watch")
@pytest.mark.ci_seconds(16)
@pytest.mark.parametrize("loaded", [False, True], ids=["alone", "two CPU burners"])
@pytest.mark.parametrize("mode", SHAPES)
def test_a_pool_computing_past_the_stall_is_neither_a_hang_nor_killed(
    report_dir: Path, mode: str, loaded: bool
) -> None:
    # GIVEN a job whose pool's workers compute for 12 s, watched with a 3 s stall and kill on hang
    args = ("--stall", "3", "--on-hang", "kill", "--", sys.executable, str(JOBS), mode, "12")
    # WHEN it runs to its end (beside two CPU burners or not)
    with burners() if loaded else contextlib.nullcontext():
        code, out, data = watch(report_dir, *args)
    # THEN it was looked at, judged healthy each time, and ends with its own exit code
    assert data["hang"] is None, json.dumps(data["hang"])[:2000]
    assert (code, out.splitlines()[0]) == (0, "ready")
    assert data["quiet"], "the quiet spell was never looked at"
    assert not list(report_dir.glob("*/inspect.json"))


POOL_TEST = """
import multiprocessing as mp
import time


def compute(seconds):
    end, n = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        n = (n * 1103515245 + 12345) % 2**31
    return n


def test_a_pool_computes():
    with mp.get_context("spawn").Pool(2) as pool:
        assert len(pool.map(compute, [12, 12])) == 2
"""


@pytest.mark.xdist_group("no-false-alarm-plugin")
@pytest.mark.ci_seconds(22)
@pytest.mark.parametrize("loaded", [False, True], ids=["alone", "two CPU burners"])
def test_the_plugin_leaves_a_test_whose_pool_computes_alone(pytester: pytest.Pytester, loaded: bool) -> None:
    # GIVEN a test whose pool computes for 12 s, under a 3 s watchdog
    pytester.makepyfile(POOL_TEST)
    args = ("-p", "no:cacheprovider", "--gvlstress-watch", "3", "--gvlstress-report-dir", "out")
    # WHEN it runs
    with burners() if loaded else contextlib.nullcontext():
        result = pytester.runpytest_subprocess(*args, timeout=180)
    # THEN it passes with no hang report
    result.assert_outcomes(passed=1)
    assert "gvlstress watch: " not in result.stdout.str().replace("gvlstress watch: no hang", "")
    assert not (pytester.path / "out").exists() or not any((pytester.path / "out").iterdir())


@pytest.mark.xdist_group("no-false-alarm-feeder")
@pytest.mark.ci_seconds(12)
@pytest.mark.parametrize("loaded", [False, True], ids=["alone", "two CPU burners"])
def test_a_wait_that_ends_during_the_look_is_not_reported(report_dir: Path, loaded: bool) -> None:
    """A parent in wait() for a ``cat`` whose stdin a thread of the parent writes and closes late
    (a blind look-alike of "a child's stdin never closed"): a look that lands as the input
    arrives saw the reader blocked and its writer gone. Before, watch called it "waits for a peer
    that has gone" and then crashed writing the report of a hang whose processes had all exited.
    Now a hang is confirmed from /proc after the look (its processes still there, the tree still
    quiet) before anything is reported or acted on."""
    # GIVEN the job, watched with a 2 s stall, its input due after 6 s
    args = ("--stall", "2", "--on-hang", "kill", "--", sys.executable, str(JOBS), "feeder", "6")
    # WHEN it runs to its end
    with burners() if loaded else contextlib.nullcontext():
        code, out, data = watch(report_dir, *args)
    # THEN no hang: its own exit code, each look healthy or "cannot tell"
    assert data["hang"] is None, json.dumps(data["hang"])[:2000]
    assert (code, out.splitlines()[0]) == (0, "ready")
    assert all(not q["hang"] for q in data["quiet"])
