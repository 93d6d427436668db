"""Run a diagnostic tool with a deadline; never let it hang the harness.

Tools (py-spy, eu-stack, gdb) can themselves hang on a wedged process. Each runs in its own
session so a timeout kills it and anything it started.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Output:
    ok: bool
    stdout: str
    stderr: str
    returncode: int | None
    elapsed_s: float
    error: str | None


def find(name: str, env_var: str | None = None) -> str | None:
    """A tool's path: an env override, PATH, or next to this interpreter (pip's scripts dir)."""
    if env_var and (override := os.environ.get(env_var)):
        return override if Path(override).is_file() and os.access(override, os.X_OK) else None
    found = shutil.which(name)
    if found:
        return found
    for d in (Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))):
        cand = d / name
        if cand.is_file() and os.access(cand, os.X_OK):
            return str(cand)
    return None


def run(argv: list[str], timeout: float, stdin: str | None = None) -> Output:
    """Run argv (no shell) with a deadline; on timeout kill its whole session."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            start_new_session=True,
        )
    except OSError as exc:
        return Output(
            False, "", "", None, time.monotonic() - started, f"cannot run {argv[0]}: {exc.strerror}"
        )
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return Output(False, out, err, None, time.monotonic() - started, f"timed out after {timeout:g}s")
    ok = proc.returncode == 0
    error = None if ok else (err.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
    return Output(ok, out, err, proc.returncode, time.monotonic() - started, error)
