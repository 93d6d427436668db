"""Hangs kept for later: a run's cores put beside its reports, and `inspect --core`, which
judges a core offline through the same rules as a live look.

A core is one instant. Its threads' registers still say which syscall each waits in and on
which futex, and pystack reads its Python and native stacks and who holds the GIL, so a
deadlock whose shape the stacks show (a lock across a parallel region, the GIL held across
one, a lock-order cycle, pool exhaustion) is named offline as it was live. What a core does not
hold (`model.cores.CORE_LACKS`) weakens the rest: a spin looks like work (no CPU over a window),
a wait on a pipe cannot be followed to its writer, no rule across processes applies. The
report says so.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from gvlstress.api.inspecting import write_inspected
from gvlstress.api.output import check_report_dir, new_run_dir, utc_now
from gvlstress.errors import EnvironmentProblem, UsageError
from gvlstress.judge.explain import explain
from gvlstress.look.core import look_at_core
from gvlstress.model import Inspected, InspectResult
from gvlstress.model.cores import CoreSource
from gvlstress.probes import corefile
from gvlstress.probes import host as hostenv
from gvlstress.system import watchdog
from gvlstress.system.redact import redact_argv, redact_path, redact_text

HOW = "judged offline from a core: one instant, no wait channels, no CPU over a window, no descriptors"


def _program(core: Path, given: str | None, found: corefile.Program | None, files: tuple[str, ...]) -> str:
    """The program pystack reads the core with: the one the core names (the file of its entry
    point), where it is on this host; a given --exe only where it is that program (a venv's
    python is a link to it: resolved), or where nothing tells (a core from another host)."""
    named = found.path if found is not None else (files[0] if files else "")
    here = bool(named) and os.path.isfile(named)
    if given is None:
        if not here:
            raise UsageError(
                f"--core {core}: the program it ran ({named or 'not named in the core'}) is not on this host",
                hint="pass --exe with the interpreter the process ran (the same build)",
            )
        return named
    if not os.path.isfile(given):
        raise UsageError(f"--exe {given}: no such file", hint="pass the interpreter the process ran")
    same = corefile.same_program(given, found) if found is not None else None
    if same is False:
        raise UsageError(
            f"--exe {given} is not the program the core ran ({named})",
            hint="drop --exe: the core names its program"
            if here
            else "pass the interpreter the process ran (the same build)",
        )
    # pystack finds the program's mappings by the path the core names them by
    return named if here and same else os.path.realpath(given)


def inspect_core(
    core: Path,
    executable: str | None = None,
    report_dir: Path = Path("reports"),
    command: tuple[str, ...] | None = None,
) -> InspectResult:
    """Judge the process a core holds, offline, through the look pipeline as ``inspect`` does a
    live one (its one process; no rule across processes). `executable` is the program it ran (the
    interpreter), by default the one the core names; a core whose stacks cannot be read is
    refused, never judged from its registers alone."""
    try:
        mode = core.stat().st_mode
    except OSError as exc:
        raise UsageError(f"--core {core}: cannot read it ({exc.strerror})", hint="pass a core file") from None
    if not stat.S_ISREG(mode):
        raise UsageError(f"--core {core}: not a regular file", hint="pass a core file (gzip, xz or plain)")
    check_report_dir(report_dir)
    started = utc_now()
    with watchdog.guarding(), corefile.scratch_dir() as scratch:
        try:
            raw = corefile.unpacked(core, scratch)
            found = corefile.notes(raw)
        except corefile.CoreError as exc:
            raise UsageError(
                f"--core {core}: {exc}", hint="pass an ELF core of a Linux x86_64 process"
            ) from None
        exe = _program(core, executable, corefile.program(raw), found.files)
        seen = look_at_core(raw, found, exe)
    judged = seen.judged[found.pid]
    finding, named = judged.finding, judged.named
    cap = seen.look.processes[found.pid].capture
    why = "no capture" if cap is None else cap.native.error
    if cap is None or not cap.native.ok:  # registers alone would say "stalled": never a clean bill of health
        missing = why is not None and "not found" in why
        raise EnvironmentProblem(
            f"--core {core}: no stacks could be read from it with {exe} ({why}); "
            "without them no verdict is given",
            hint="pip install pystack"
            if missing
            else "pass --exe with the interpreter the process ran (the same build)",
        )
    diagnosis = explain(judged.verdict, finding, cap, HOW, named=named, waitfor=judged.waitfor)
    run_dir = new_run_dir(report_dir, f"core-{found.pid}", started)
    source = CoreSource(
        core=redact_path(str(core)),
        executable=redact_path(exe),
        writer_hint=redact_text(found.writer),
        threads=len(found.threads),
        saved_bytes=found.saved_bytes,
    )
    result = InspectResult(
        (Inspected(found.pid, redact_text(found.psargs) or found.fname, finding, cap, diagnosis),),
        hostenv.snapshot(),
        started.isoformat(timespec="seconds"),
        redact_argv(command if command is not None else sys.argv),
        redact_path(str(run_dir)),
        core=source,
    )
    return write_inspected(result, run_dir)
