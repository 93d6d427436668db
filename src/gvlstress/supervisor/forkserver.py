"""`--preload`: import the target once in multiprocessing's fork server, and prove it fork-safe.

Spawned workers pay an interpreter start and the target's imports (numpy, numba, a native
extension) in every wave; a fork server that already imported them forks warm workers in
milliseconds. That is only sound if the import left the fork server single-threaded: a thread
alive at fork() (a rayon pool, a numba or OpenMP runtime) is missing in every child, which is
the fork-after-init hang this tool diagnoses. So after the preload, a probe child forked from
the server reports which modules really got imported (the server swallows ImportError) and
its parent's pid, and /proc says how many threads the server has.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections.abc import Mapping
from multiprocessing import forkserver
from multiprocessing.connection import Connection
from typing import Any

from gvlstress.errors import EnvironmentProblem, UsageError
from gvlstress.probes import procfs
from gvlstress.system import watchdog
from gvlstress.system.knobs import environ_with

START_S = 120.0
"""Deadline for the fork server's start and preload (a cold numba or torch import is slow)."""


def _probe(conn: Connection, modules: list[str]) -> None:
    """Runs in a child forked from the server: what the server had imported, and its pid."""
    conn.send({"imported": [m for m in modules if m in sys.modules], "server": os.getppid()})
    conn.close()


def _start(child: Any) -> None:
    """child.start(), quiet when the server it waits on was killed for hanging (said elsewhere)."""
    with contextlib.suppress(EOFError, OSError):
        child.start()


def preload(modules: tuple[str, ...], env: Mapping[str, str], deadline_s: float = START_S) -> dict[str, Any]:
    """Start the fork server with `modules` imported under the workers' thread settings `env`
    (a loader may fix its pool size at import); facts for run.json. Refuses (UsageError) when
    the import left threads in the server, or did not import what was asked."""
    ctx = mp.get_context("forkserver")
    wanted = list(dict.fromkeys(["gvlstress.worker", *modules]))
    ctx.set_forkserver_preload(wanted)
    started = time.monotonic()
    ours, theirs = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_probe, args=(theirs, wanted), name="gvlstress-preload-probe")
    # start() returns once the server, after importing `wanted`, has forked the probe: an import
    # that hangs would hang it, so it runs beside us under the deadline
    with environ_with(env):
        starter = threading.Thread(target=_start, args=(child,), name="gvlstress-preload", daemon=True)
        starter.start()
        starter.join(deadline_s)
    if starter.is_alive():
        server = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None)
        if isinstance(server, int):
            with contextlib.suppress(ProcessLookupError):
                os.kill(server, signal.SIGKILL)  # its import hangs; start() then fails and returns
        starter.join(5)
        ours.close()
        theirs.close()
        raise EnvironmentProblem(
            f"--preload: importing {', '.join(wanted)} in the fork server did not finish within {deadline_s:g}s",
            hint="the import hangs or is very slow there (raise --startup-grace), or drop --preload",
        )
    theirs.close()
    try:
        if not ours.poll(deadline_s):
            raise EnvironmentProblem(
                f"--preload: the fork server did not answer within {deadline_s:g}s",
                hint="importing the target hangs or is very slow; drop --preload",
            )
        facts: dict[str, Any] = ours.recv()
    except EOFError:
        raise EnvironmentProblem(
            "--preload: the fork server's probe child died before answering",
            hint="run without --preload to see the target's own error",
        ) from None
    finally:
        ours.close()
        if child.pid is not None:  # start() may have failed before the fork (a bad __main__)
            child.join(timeout=5)
            if child.exitcode is None:
                child.kill()
                child.join(timeout=5)
    server = int(facts["server"])
    watchdog.watch(server)
    seen = procfs.sample(server)
    threads = len(seen.threads) if seen is not None else None
    facts.update(modules=wanted, env=dict(env), seconds=round(time.monotonic() - started, 3), threads=threads)
    if seen is not None and len(seen.threads) > 1:
        names = ", ".join(sorted({t.comm for t in seen.threads if t.tid != server})) or "unnamed"
        raise UsageError(
            f"--preload: importing {', '.join(wanted)} left {len(seen.threads) - 1} thread(s) running in the fork "
            f"server ({names}); every worker forked from it would inherit a pool without its threads",
            hint="drop --preload (spawn, or forkserver without preload, imports in each worker)",
        )
    missing = [m for m in wanted if m not in facts["imported"]]
    if missing:
        raise UsageError(
            f"--preload: the fork server could not import {', '.join(missing)}",
            hint="check that the target imports in this interpreter, or drop --preload",
        )
    return facts
