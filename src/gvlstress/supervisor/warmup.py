"""The warm-up: open the target once, in one process of the workers' interpreter, before any wave.

Why: targets that compile on first use and cache on disk (numba's ``cache=True``, torch
inductor) race when N freshly spawned workers fill the same cold cache at once; with numba one
worker can load another's half-written entry and abort (``LLVM ERROR: Symbol not found``), and
the cache stays poisoned. One process first makes the cache complete; workers then only read.
Warm-ups of concurrent runs are serialised by a lock file in the cache directory, so two
gvlstress runs cannot race each other either.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gvlstress import worker
from gvlstress.errors import EnvironmentProblem, GvlstressError, StopNow
from gvlstress.judge import patterns
from gvlstress.probes import tools
from gvlstress.scenario import Scenario
from gvlstress.supervisor import worker_spec
from gvlstress.system.cache import cache_root
from gvlstress.system.failure import user_error
from gvlstress.system.redact import redact_text
from gvlstress.targets.base import TargetPlan

TIMEOUT_S = 600.0
"""A cold numba cache of a large package takes minutes on two cores; this is a deadline."""
LOCK_POLL_S = 0.1


@contextlib.contextmanager
def _locked(path: Path, timeout: float) -> Iterator[float]:
    """Hold an exclusive lock on `path` (waiting at most `timeout`); yields seconds waited."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    started = time.monotonic()
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() - started > timeout:
                    raise EnvironmentProblem(
                        f"another gvlstress warm-up held {path} for over {timeout:g}s",
                        hint="wait for the other run, or pass --no-warm-up",
                    ) from None
                time.sleep(LOCK_POLL_S)  # polling a lock another process holds
        yield time.monotonic() - started
    finally:
        os.close(fd)  # closing releases the lock


def warm_up(scenario: Scenario, plan: TargetPlan, timeout: float = TIMEOUT_S) -> dict[str, Any]:
    """Run the target's warm-up; facts for run.json, or EnvironmentProblem when it fails."""
    python = plan.python or sys.executable
    spec = worker_spec(scenario, plan, "warm-up", 0)
    paths = list(plan.sys_path) or list(sys.path)
    argv = [python, "-c", worker.WARM_SNIPPET, json.dumps(paths), worker.spec_json(spec)]
    with _locked(cache_root() / "warm-up.lock", timeout) as waited:
        out = tools.run(argv, timeout)
    if not out.ok:
        lines = tuple(redact_text(x) for x in out.stderr.strip().splitlines()[-50:])
        cause = patterns.failure_cause(lines, None)
        last = cause.line if cause else (lines[-1] if lines else out.error or "failed")
        raise EnvironmentProblem(
            f"the warm-up of target {scenario.target!r} failed: {last[:300]}",
            hint=(cause.hint if cause else "run one worker by hand to see the whole error")
            + "; --no-warm-up skips it",
        )
    try:
        info = json.loads(out.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        info = {}
    return {
        "done": True,
        "elapsed_s": round(out.elapsed_s, 2),
        "lock_wait_s": round(waited, 2),
        "python": python,
        "target_info": info if isinstance(info, dict) else {},
    }


def warm_parent(scenario: Scenario, plan: TargetPlan) -> str:
    """--warm-parent for any target: its warm() (or one batch) here, in the supervisor, with the
    workers' thread settings, so forked workers inherit started pools. Says what was warmed."""
    if plan.parent_warmed is not None:
        return plan.parent_warmed
    spec = worker_spec(scenario, plan, "warm-parent", 0)
    saved = {k: os.environ.get(k) for k in spec.env}
    try:
        info = worker.warm(spec)
    except (GvlstressError, StopNow):
        raise
    except BaseException as exc:  # the target's own failure, in our process: the user's to fix
        raise user_error("--warm-parent: the target, run in the supervisor,", exc) from None
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    pool = info.get("rayon_threads") if isinstance(info, dict) else None
    return f"one batch of {scenario.target} in the supervisor (pid {os.getpid()})" + (
        f", pool of {pool} threads" if pool else ""
    )
