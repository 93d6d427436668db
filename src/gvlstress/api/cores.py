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

from gvlstress.api.inspect import write_inspected
from gvlstress.api.output import check_report_dir, new_run_dir, utc_now
from gvlstress.errors import UsageError
from gvlstress.judge.explain import explain
from gvlstress.judge.verdict import INSPECT_VERDICT
from gvlstress.look.core import look_at_core
from gvlstress.model import Inspected, InspectResult
from gvlstress.model.cores import CoreSource
from gvlstress.probes import corefile
from gvlstress.probes import host as hostenv
from gvlstress.system import watchdog
from gvlstress.system.redact import redact_argv, redact_path, redact_text

HOW = "judged offline from a core: one instant, no wait channels, no CPU over a window, no descriptors"


def inspect_core(
    core: Path,
    executable: str | None = None,
    report_dir: Path = Path("reports"),
    command: tuple[str, ...] | None = None,
) -> InspectResult:
    """Judge the process a core holds, offline, through the look pipeline as ``inspect`` does a
    live one (its one process; no rule across processes). `executable` is the program it ran (the
    interpreter), by default the first file the core maps."""
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
        exe = executable or (found.files[0] if found.files else "")
        if not exe or not os.path.isfile(exe):
            raise UsageError(
                f"--core {core}: the program it ran ({exe or 'not named in the core'}) is not on this host",
                hint="pass --exe with the interpreter the process ran (the same build)",
            )
        seen = look_at_core(raw, found, exe)
    verdict = seen.judged[found.pid]
    finding, named = verdict.finding, verdict.named
    cap = seen.look.processes[found.pid].capture
    diagnosis = explain(INSPECT_VERDICT[finding.kind], finding, cap, HOW, named=named)
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
