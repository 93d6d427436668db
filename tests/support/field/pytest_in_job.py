"""Shape: a pytest run inside a job (a CI step running a test suite): the job waits on the
inner pytest, whose one slow test sleeps and computes in turns."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import _field

SUITE = """
import time

def test_fast():
    assert sum(range(1000)) == 499500

def test_slow_integration():
    end = time.monotonic() + {seconds}
    while time.monotonic() < end:
        time.sleep(min(2.0, max(0.0, end - time.monotonic())))  # waiting on a service
        n = 0
        for i in range(200_000):  # then checking what it returned
            n += i * i
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        Path(d, "test_suite.py").write_text(SUITE.format(seconds=_field.SECONDS + 1.0))

        def announce() -> None:
            _field.settle(lambda: bool(_field.children_of(os.getpid())), "the inner pytest")
            _field.ready()

        threading.Thread(target=announce, daemon=True).start()
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:gvlstress", d],
            capture_output=True,
            text=True,
            timeout=_field.MAX_S + 60,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr


if __name__ == "__main__":
    main()
