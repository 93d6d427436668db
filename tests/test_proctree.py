"""Killing a process tree: the order matters to what the report says about it."""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from conftest import wait_for
from gvlstress.system import proctree

pytestmark = pytest.mark.slow  # real process trees

# The parent reads a pipe whose only writer is its child: it can end only if the child dies.
_PARENT = r"""
import os, subprocess, sys
r, w = os.pipe()
subprocess.Popen(["sleep", "60"], pass_fds=(w,))
os.close(w)
sys.stdout.write("ready\n"); sys.stdout.flush()
os.read(r, 1)
os.write(1, b"woke\n")
"""


def _asleep(pid: int) -> bool:
    return Path(f"/proc/{pid}/wchan").read_text() not in ("", "0")


def test_a_parent_is_killed_before_the_child_whose_death_would_wake_it() -> None:
    # Killing the child first wakes the parent (EOF) in the moment before its own SIGKILL: a hung
    # worker then "finishes" and the wave calls it slow. Seen 8 times in 30 with the child first.
    woke = 0
    for _ in range(20):
        p = subprocess.Popen([sys.executable, "-c", _PARENT], stdout=subprocess.PIPE, start_new_session=True)
        try:
            assert p.stdout is not None
            assert p.stdout.readline() == b"ready\n"
            wait_for(partial(_asleep, p.pid), 10, "the parent asleep in read()")
            assert proctree.kill_trees([p.pid], timeout=5) == []
            woke += b"woke" in p.stdout.read()
            assert p.wait(timeout=5) == -9
        finally:
            if p.poll() is None:  # a failed check above: leave nothing behind
                proctree.kill_trees([p.pid], timeout=5)
                p.wait(timeout=5)
    assert woke == 0
