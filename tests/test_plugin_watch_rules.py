"""Rules behind the pytest plugin's watchdog and what leaving `watch` on costs, read from a fake
/proc: the stall a test is watched with, a watcher left out of the tree it watches, and the
harness watchdog's recording of trees (what it records, and when it may skip the scan)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gvlstress.probes import progress as counters
from gvlstress.pytest_watch import stall_for
from gvlstress.supervisor.watching import look_due
from gvlstress.system.watchdog import GROUP_POLL_S, POLL_S, Trees


def proc(root: Path, procs: dict[int, tuple[int, int, int]], last_pid: int) -> str:
    """A /proc with `procs` (pid -> parent, process group, start ticks) and loadavg's last pid."""
    root.mkdir(exist_ok=True)
    for pid, (ppid, pgid, start) in procs.items():
        (root / str(pid)).mkdir(exist_ok=True)
        rest = ["0"] * 14 + ["1", "0", str(start)]  # fields 3-16, num_threads, itrealvalue, starttime
        (root / str(pid) / "stat").write_text(f"{pid} (x y) S {ppid} {pgid} {' '.join(rest)} 0 0\n")
    (root / "loadavg").write_text(f"0.00 0.01 0.05 1/100 {last_pid}\n")
    return str(root)


@pytest.mark.parametrize(
    ("watch", "timeout", "margin", "stall"),
    [
        (60, None, 30, 60),  # no pytest-timeout: the setting as it is
        (60, 300, 30, 60),  # fits before the timeout
        (60, 70, 30, 40),  # capped: the look and its report need the margin
        (60, 40, 30, 20),  # a margin larger than half the timeout: half the timeout
        (3, 20, 30, 3),
        (5, 1, 30, 1),  # never under a second (watch's own floor)
    ],
)
def test_a_tests_stall_is_capped_to_report_before_pytest_timeout(
    watch: float, timeout: float | None, margin: float, stall: float
) -> None:
    assert stall_for(watch, timeout, margin) == stall


def test_a_watcher_inside_the_tree_is_left_out_with_what_it_started(tmp_path: Path) -> None:
    # GIVEN pytest (10) with a test's child (11) and the watch helper (12) with its tool (13)
    root = proc(tmp_path / "proc", {10: (1, 10, 5), 11: (10, 10, 6), 12: (10, 12, 7), 13: (12, 13, 8)}, 13)
    # THEN the helper's tree is the test's tree without the helper and its tool
    assert counters.tree(10, root, skip=(12,)) == (10, 11)
    assert counters.tree(10, root) == (10, 11, 12, 13)


def test_the_watchdog_records_descendants_and_skips_the_scan_while_nobody_is_born(tmp_path: Path) -> None:
    # GIVEN a registered job (20, its own group) with a child, beside a stranger (30)
    at = tmp_path / "proc"
    trees = Trees(proc(at, {20: (1, 20, 100), 21: (20, 20, 101), 30: (1, 30, 50)}, 21))
    trees.add(20)
    trees.record(0.0)
    assert trees.seen == {20: 100, 21: 101}
    # WHEN a grandchild appears but no pid was handed out since (a made-up /proc: impossible live)
    proc(at, {22: (21, 20, 102)}, 21)
    trees.record(1.0)
    # THEN the scan was skipped: nothing can be new
    assert 22 not in trees.seen
    # AND once the last pid moves, the scan finds it
    proc(at, {22: (21, 20, 102)}, 22)
    trees.record(2.0)
    assert trees.seen == {20: 100, 21: 101, 22: 102}


def test_the_watchdog_polls_slowly_only_when_every_root_leads_its_own_group(tmp_path: Path) -> None:
    at = proc(tmp_path / "proc", {40: (1, 40, 1), 41: (1, 1, 2)}, 41)
    job = Trees(at)
    job.add(40)  # watch's job: its own process group
    job.record(0.0)
    assert not job.due(GROUP_POLL_S - 0.1)
    assert job.due(GROUP_POLL_S)
    job.add(41)  # a worker in the harness's group: only the recording finds its children
    assert job.due(POLL_S)


def test_a_quiet_healthy_job_is_looked_at_again_backing_off_not_at_every_tick() -> None:
    # the 5th look of one quiet spell came 8 stalls in, then one at every tick (a fixed bug)
    assert [look_due(10, n) for n in range(7)] == [10, 20, 40, 80, 160, 240, 320]
