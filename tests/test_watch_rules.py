"""What counts as progress for `gvlstress watch` (`judge.progress`, pure), as a table: each row
one change between two readings of a job's tree."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gvlstress.judge.progress import FAULT_FLOOR, READ_FLOOR, WRITE_FLOOR, between
from gvlstress.model.watch import ProcCounters, TreeReading


def tree(*procs: ProcCounters, at: float = 0.0, **kw: object) -> TreeReading:
    return TreeReading(at, procs, **kw)  # type: ignore[arg-type]


READ, WROTE = 10_000, 2_000
P = ProcCounters(100, cpu_ticks=50, rchar=READ, wchar=WROTE, minflt=5_000, threads=16)
Q = ProcCounters(101, cpu_ticks=10, rchar=0, wchar=0, minflt=300, threads=1)


@pytest.mark.parametrize(
    ("after", "explicit", "moved"),
    [
        (tree(P, Q), False, False),  # nothing changed
        (tree(replace(P, cpu_ticks=500), Q), False, False),  # CPU alone: a spin looks like this
        (tree(replace(P, rchar=READ + 8 * 100), Q), False, False),  # wake-ups: eventfd/self-pipe reads
        (tree(replace(P, rchar=READ + READ_FLOOR + 1), Q), False, True),  # real input
        (tree(replace(P, wchar=WROTE + WRITE_FLOOR + 1), Q), False, True),  # a line of output or data
        (tree(replace(P, minflt=P.minflt + FAULT_FLOOR + 1), Q), False, True),  # new memory touched
        (tree(P), False, True),  # a process ended
        (tree(P, Q, ProcCounters(102, 0, 0, 0, 0, 1)), False, True),  # a process started
        (tree(P, Q, output_lines=3), False, True),  # output through watch's own pipes
        # an explicit signal: only it counts (a hung job that still logs or computes is quiet)
        (tree(replace(P, wchar=WROTE + 10_000), Q), True, False),
        (tree(P, Q, heartbeat_mtime=2.0), True, True),
        (tree(P, Q, matched_lines=1), True, True),
    ],
    ids=[
        "nothing",
        "cpu-only",
        "wake-ups",
        "input",
        "output",
        "new-memory",
        "process-ended",
        "process-started",
        "output-lines",
        "explicit-ignores-bytes",
        "heartbeat",
        "regex-line",
    ],
)
def test_what_counts_as_progress(after: TreeReading, explicit: bool, moved: bool) -> None:
    before = tree(P, Q, heartbeat_mtime=1.0 if explicit else None)
    assert between(before, replace(after, at=1.0), explicit).moved is moved
