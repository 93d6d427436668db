"""`selftest --real`: run each real bug's trigger, inspect the hung process as a user would,
then run its control; nothing started here outlives the entry (or the harness: a watchdog)."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import psutil

from gvlstress.api.inspecting import inspect
from gvlstress.api.output import check_report_dir, new_run_dir, utc_now
from gvlstress.controls.realbug import script
from gvlstress.controls.realbugs import NO_RUNTIME, as_dict, select
from gvlstress.errors import GvlstressError
from gvlstress.model.controls import Outcome, RealBug, RealBugsResult
from gvlstress.probes.interpreter import interpreter
from gvlstress.reporters import markdown
from gvlstress.reporters.files import write_atomic
from gvlstress.supervisor import StopFlag
from gvlstress.system import watchdog

READY_S = 90.0
"""How long a trigger may take to reach its hang (a cold polars import, a venv's first run)."""
CONTROL_S = 120.0
"""How long a control may take to finish; one that does not has hung too."""

ProgressFn = Callable[[Outcome], None]


def real_selftest(
    names: tuple[str, ...] | None = None,
    report_dir: Path = Path("reports"),
    progress: ProgressFn | None = None,
    stop: StopFlag | None = None,
) -> RealBugsResult:
    """Every catalogue entry (or those named): trigger, inspect, control."""
    check_report_dir(report_dir)
    run_dir = new_run_dir(report_dir, "selftest-real", utc_now())
    stop = stop if stop is not None else StopFlag()
    outcomes = []
    with watchdog.guarding():
        for bug in select(names):
            if stop:
                break
            outcome = _entry(bug, run_dir / bug.name)
            outcomes.append(outcome)
            if progress is not None:
                progress(outcome)
    result = RealBugsResult(tuple(outcomes), str(run_dir))
    write_atomic(run_dir / "selftest-real.json", json.dumps(as_dict(result), indent=2) + "\n")
    write_atomic(run_dir / "selftest-real.md", markdown.render_realbugs(result))
    return result


def _entry(bug: RealBug, out_dir: Path) -> Outcome:
    python, why = interpreter(bug.packages, bug.python)
    if python is None:
        return Outcome(bug, skipped=why)
    out_dir.mkdir(parents=True, exist_ok=True)
    trigger = _trigger(bug, python, out_dir)
    if trigger.skipped or trigger.error:
        return trigger
    if bug.control_packages is not None:  # the fix is a release: the control runs with its pins
        python, why = interpreter(bug.control_packages, bug.python)
        if python is None:
            return replace(trigger, control_clean=False, control_note=why)
    clean, note, seconds = _control(bug, python, out_dir)
    return Outcome(
        bug,
        verdict=trigger.verdict,
        pattern=trigger.pattern,
        summary=trigger.summary,
        inspect_s=trigger.inspect_s,
        control_clean=clean,
        control_note=note,
        control_s=seconds,
    )


def _trigger(bug: RealBug, python: str, out_dir: Path) -> Outcome:
    """Start the trigger, wait for its handshake, inspect the process it names, end it."""
    with (out_dir / "trigger.stderr").open("wb") as err:
        proc = subprocess.Popen(
            [python, str(script(bug)), *bug.args],
            stdout=subprocess.PIPE,
            stderr=err,
            start_new_session=True,
            env=_env(bug),
        )
    watchdog.watch(proc.pid)
    try:
        lines = handshake(proc, READY_S)
        if "ready" not in lines:
            code = proc.poll()
            if code == NO_RUNTIME:
                why = (out_dir / "trigger.stderr").read_text(errors="replace").strip().splitlines()
                return Outcome(bug, skipped=why[-1] if why else "this host lacks what it needs")
            return Outcome(
                bug, error=f"the trigger never reached its hang (exit {code}, printed {lines[-3:]})"
            )
        look = int(next(x for x in lines if x.startswith("look ")).split()[1])
        started = time.monotonic()
        try:
            seen = inspect(
                look, tree=bug.tree, report_dir=out_dir, command=("gvlstress", "selftest", "--real")
            )
        except GvlstressError as exc:
            return Outcome(bug, error=f"inspect failed: {exc}")
        took = time.monotonic() - started
        p = next(p for p in seen.processes if p.pid == look)
        return Outcome(
            bug,
            verdict=p.diagnosis.verdict.value,
            pattern=p.diagnosis.pattern,
            summary=p.diagnosis.summary,
            inspect_s=took,
        )
    finally:
        end_group(proc)


def handshake(proc: subprocess.Popen[bytes], timeout: float) -> list[str]:
    """A program's stdout lines up to `ready` (or its exit, or `timeout`); raw reads, as a
    buffered readline would hide lines from select."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    lines: list[str] = []
    buf = b""
    end = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while "ready" not in lines:
            left = end - time.monotonic()
            if left <= 0 or not sel.select(timeout=left):
                break
            chunk = os.read(fd, 4096)
            if not chunk:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=5)
                break
            *done, buf = (buf + chunk).split(b"\n")
            lines += [x.decode(errors="replace").strip() for x in done]
    return lines


def _control(bug: RealBug, python: str, out_dir: Path) -> tuple[bool, str, float]:
    """Run the fixed variant: clean when it exits 0 within CONTROL_S."""
    started = time.monotonic()
    with (out_dir / "control.stderr").open("wb") as err:
        proc = subprocess.Popen(
            [python, str(script(bug)), "control", *bug.args],
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
            env=_env(bug),
        )
    watchdog.watch(proc.pid)
    try:
        code = proc.wait(timeout=CONTROL_S)
    except subprocess.TimeoutExpired:
        return False, f"did not finish within {CONTROL_S:g}s", time.monotonic() - started
    finally:
        end_group(proc)
    took = time.monotonic() - started
    return code == 0, "finished" if code == 0 else f"exit {code}", took


def _env(bug: RealBug) -> dict[str, str]:
    """The user's environment with the entry's variables (a wait policy, a library's switch)."""
    return {**os.environ, **dict(bug.env)}


def end_group(proc: subprocess.Popen[bytes]) -> list[psutil.Process]:
    """SIGKILL the program's session, resource trackers last (a tracker whose program died
    unlinks the semaphores it leaked when its pipe closes), and reap it; returns the trackers
    that did not end by themselves (killed with the rest)."""
    group = [p for p in psutil.process_iter() if _pgid(p.pid) == proc.pid]
    trackers = [p for p in group if "resource_tracker" in " ".join(_cmdline(p))]
    for p in group:
        if p not in trackers:
            with contextlib.suppress(psutil.Error):
                p.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=30)
    _, alive = psutil.wait_procs(trackers, timeout=10)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    if proc.stdout is not None:
        proc.stdout.close()
    return alive


def _pgid(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def _cmdline(p: psutil.Process) -> list[str]:
    try:
        return p.cmdline()
    except psutil.Error:
        return []
