"""Run a diagnostic tool with a deadline; never let it hang the harness.

Tools (py-spy, eu-stack, gdb) can themselves hang on a wedged process. Each runs in its own
session so a timeout kills it and anything it started.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil

from gvlstress.system import proctree, watchdog
from gvlstress.system.redact import redact_text


@dataclass(frozen=True)
class Output:
    ok: bool
    stdout: str
    stderr: str
    returncode: int | None
    elapsed_s: float
    error: str | None


class Hung:
    """The stack tools that ran out of time in one look (or one wave): they are not asked again
    there. A tool that hangs on one process (a wedged ptrace, a fake py-spy printing forever) hangs
    on the next look too, and each ask costs its whole deadline."""

    def __init__(self) -> None:
        self._names: set[str] = set()
        self._lock = threading.Lock()

    def __contains__(self, name: object) -> bool:
        with self._lock:
            return name in self._names

    def add(self, name: str) -> None:
        with self._lock:
            self._names.add(name)

    def names(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._names)


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


DRAIN_S = 2.0
"""After a kill, how long the tool's pipes may still be read (a grandchild that left the tool's
session can hold them open forever: it is killed too, and the pipes are then abandoned)."""
SLICE_S = 0.2
"""How often a waiting tool run checks for a cancel (Ctrl-C, SIGTERM)."""
_cancel = threading.Event()
TOOL_VAR = "GVLSTRESS_TOOL"
"""A token in each tool run's environment: what the run left behind is found by it."""
_runs = itertools.count()


def cancel() -> None:
    """Kill every running tool now and start no new one (called from a signal handler)."""
    _cancel.set()


def reset() -> None:
    """Allow tools again (a new run)."""
    _cancel.clear()


def _kill_tree(pid: int) -> None:
    """SIGKILL the tool's session and every descendant, also those that left it (setsid)."""
    try:
        kids = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        kids = []
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    for k in kids:
        with contextlib.suppress(psutil.Error):
            k.kill()


TOOL_ENV_DROPPED = ("RUST_BACKTRACE", "RUST_LIB_BACKTRACE", "PYTHONWARNINGS")
"""The user's settings that change what a diagnostic tool prints (a Rust backtrace after
py-spy's error), not what it finds: a tool runs without them."""


def tool_env() -> dict[str, str]:
    """The environment a diagnostic tool runs in (the user's, minus TOOL_ENV_DROPPED)."""
    return {k: v for k, v in os.environ.items() if k not in TOOL_ENV_DROPPED}


def run(argv: list[str], timeout: float, stdin: str | None = None, *, diagnostic: bool = False) -> Output:
    """Run argv (no shell) in its own session with a deadline that holds: at the deadline (or on
    `cancel`) the tool and all its descendants are killed and its pipes read for at most DRAIN_S.

    What it prints is redacted here, once: tool output is one of the doors a secret comes in by
    (a thread name, a path). A `diagnostic` tool (py-spy, pystack, eu-stack, gdb) runs with
    `tool_env()`; anything else (the target's warm-up) with the user's environment."""
    started = time.monotonic()
    if _cancel.is_set():
        return Output(False, "", "", None, 0.0, "cancelled (the run is stopping)")
    token = f"{os.getpid()}-{next(_runs)}-{started}"
    env = tool_env() if diagnostic else dict(os.environ)
    env[TOOL_VAR] = token
    born = proctree.boot_ticks()
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            start_new_session=True,
            env=env,
        )
    except OSError as exc:
        return Output(
            False, "", "", None, time.monotonic() - started, f"cannot run {argv[0]}: {exc.strerror}"
        )
    watchdog.watch(proc.pid)

    def sweep() -> None:  # whatever it left behind, however far it went (a double fork leaves every tree)
        proctree.sweep_owned(token, born, keep=set(), var=TOOL_VAR)

    try:
        return _finish(proc, stdin, started, timeout, sweep)
    finally:
        sweep()


def _finish(
    proc: subprocess.Popen[str], stdin: str | None, started: float, timeout: float, sweep: Callable[[], None]
) -> Output:
    deadline = started + timeout
    feed = stdin
    swept = False
    while True:
        try:
            out, err = proc.communicate(feed, timeout=max(0.01, min(SLICE_S, deadline - time.monotonic())))
            break
        except subprocess.TimeoutExpired:
            feed = None  # communicate keeps what it already sent
            if proc.poll() is not None and not swept:  # it exited, but something it left holds its pipes
                sweep()
                swept = True
                continue
            if _cancel.is_set() or time.monotonic() >= deadline:
                why = (
                    "cancelled (the run is stopping)" if _cancel.is_set() else f"timed out after {timeout:g}s"
                )
                _kill_tree(proc.pid)
                try:
                    out, err = proc.communicate(timeout=DRAIN_S)
                except subprocess.TimeoutExpired:
                    for pipe in (proc.stdout, proc.stderr):
                        if pipe is not None:
                            with contextlib.suppress(OSError):
                                pipe.close()
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        proc.wait(timeout=DRAIN_S)
                    out, err = "", ""
                return Output(
                    False,
                    redact_text(out or ""),
                    redact_text(err or ""),
                    None,
                    time.monotonic() - started,
                    why,
                )
    ok = proc.returncode == 0
    out, err = redact_text(out), redact_text(err)
    error = None if ok else error_line(err, proc.returncode)
    return Output(ok, out, err, proc.returncode, time.monotonic() - started, error)


_BACKTRACE = re.compile(r"^\s*(\d+:|at |stack backtrace:|note: )")


def error_line(err: str, code: int | None) -> str:
    """The tool's error message: its last line that is not part of a Rust backtrace
    (RUST_BACKTRACE=1 in the environment makes py-spy end with frames, not the error)."""
    lines = [line for line in err.strip().splitlines() if line.strip()]
    useful = [line for line in lines if not _BACKTRACE.match(line)]
    return (useful or lines or [f"exit code {code}"])[-1]
