"""pytest's side of the watchdog on every test (``--gvlstress-watch``): the helper process
(`gvlstress.api.watch_tests`) that watches pytest's tree, told when each test begins and ends,
and what it found, by test; the stall each test is watched with."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from gvlstress.system import helper

PR_SET_PTRACER = 0x59616D61
END_S = 40.0
"""How long a test's end waits for its watch to end (a look in progress finishes first)."""


def stall_for(watch: float, timeout: float | None, margin: float) -> float:
    """The stall a test is watched with: `watch`, capped so that the look and its report (about
    `margin` seconds, at most half the test's time) come before pytest-timeout's `timeout`."""
    if timeout is not None:
        watch = min(watch, max(timeout - margin, timeout / 2))
    return max(1.0, watch)


class TestWatch:
    """pytest's side of the watchdog: the helper process (`gvlstress.api.watch_tests`), told when
    each test begins and ends; what it found, by test. Reads its answers without a thread (a test
    that holds the GIL would stop one) and never waits on it without a deadline."""

    __test__ = False  # not a test class, whatever its name

    def __init__(self, config: pytest.Config, report_dir: Path) -> None:
        self.found: dict[str, str] = {}
        """nodeid -> the report section's text, kept for the terminal summary."""
        self.unshown: set[str] = set()
        self.problems: list[str] = []
        self._buf = b""
        self._ended: set[str] = set()
        capman = config.pluginmanager.getplugin("capturemanager")
        quiet = capman.global_and_fixture_disabled() if capman is not None else contextlib.nullcontext()
        with quiet:  # its stderr is the terminal's, not a test's capture
            self.proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                [sys.executable, "-m", "gvlstress.api.watch_tests", str(os.getpid()), str(report_dir)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                start_new_session=True,
            )
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        with contextlib.suppress(Exception):  # Yama ptrace_scope 1: its tools may attach to us
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PTRACER, self.proc.pid, 0, 0, 0)

    def _send(self, **message: Any) -> bool:
        if self.proc is None or self.proc.stdin is None:
            return False
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            self._lost()
            return False
        return True

    def _lost(self) -> None:
        if self.proc is not None:
            self.problems.append(
                f"the watchdog helper ended (exit code {self.proc.poll()}); tests are not watched"
            )
            self.close()

    def _read(self, timeout: float) -> None:
        """Take in what the helper said, waiting up to `timeout` for more."""
        if self.proc is None or self.proc.stdout is None:
            return
        fd = self.proc.stdout.fileno()
        if timeout > 0:
            select.select([fd], [], [], timeout)
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._lost()
            return
        self._buf += chunk
        *lines, self._buf = self._buf.split(b"\n")
        for line in lines:
            with contextlib.suppress(ValueError):
                self._take(json.loads(line))

    def _take(self, message: dict[str, Any]) -> None:
        if "hang" in message:
            self.found[message["hang"]] = message["text"]
            self.unshown.add(message["hang"])
        elif "error" in message:
            self.problems.append(f"{message['error']}: {message['text']}")
        elif "ended" in message:
            self._ended.add(message["ended"])

    def begin(self, nodeid: str, stall: float) -> None:
        self._send(begin=nodeid, stall=stall)

    def section(self, nodeid: str) -> str | None:
        """The test's hang, once (for the first report made after it was found)."""
        self._read(0)
        if nodeid in self.unshown:
            self.unshown.discard(nodeid)
            return self.found[nodeid]
        return None

    def end(self, nodeid: str) -> None:
        if not self._send(end=nodeid):
            return
        deadline = time.monotonic() + END_S
        while (
            nodeid not in self._ended and self.proc is not None and (left := deadline - time.monotonic()) > 0
        ):
            self._read(left)
        self._ended.discard(nodeid)

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            helper.end_helper(proc, END_S)
