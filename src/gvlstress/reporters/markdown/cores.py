"""Kept hangs in Markdown: the secrets note and each core of a run, and what an offline verdict
from a core could not see."""

from __future__ import annotations

import shlex

from gvlstress.model import RunResult, WorkerOutcome
from gvlstress.model.cores import CoreSource, KeptCore
from gvlstress.reporters.markdown.tables import code, prose


def mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def secrets_note(result: RunResult) -> list[str]:
    """One line, when the run kept cores (``--keep-core``; off by default)."""
    if not result.scenario.keep_core:
        return []
    return [
        f"> **Cores kept** (`--keep-core`, up to {mib(result.scenario.core_limit)} of memory each, under "
        "`cores/`): a core holds the worker's memory (its environment, arguments and whatever it read), "
        "so it may hold secrets; share it only as you would that machine's memory.",
        "",
    ]


def inspect_command(core: KeptCore) -> str:
    return shlex.join(["gvlstress", "inspect", "--core", core.path, "--exe", core.executable or "PYTHON"])


def core_lines(w: WorkerOutcome) -> list[str]:
    """Under a hung worker's diagnosis: its core, and how to judge it offline."""
    core = w.capture.core if w.capture is not None else None
    if core is None:
        return []
    if not core.ok:
        return [f"No core kept ({core.writer}): {prose(core.error or 'no reason given')}.", ""]
    left = f"; {mib(core.left_out_bytes)} left out by the bound" if core.left_out_bytes else ""
    late = f" ({prose(core.error)})" if core.error else ""
    return [
        f"Core: {code(core.path)} ({mib(core.file_bytes)} gzip; {mib(core.saved_bytes)} of memory, "
        f"{core.threads} threads{left}; written by {core.writer}, the worker held {core.seconds:.2f}s){late}. "
        f"Judge it offline: {code(inspect_command(core))}",
        "",
    ]


def offline_section(source: CoreSource) -> list[str]:
    """What an ``inspect --core`` report must say before its verdict."""
    lacks = "; ".join(source.lacks)
    return [
        f"Judged offline from the core {code(source.core)} (written by {prose(source.writer_hint)}; "
        f"{source.threads} threads, {mib(source.saved_bytes)} of memory; program {code(source.executable)}).",
        "",
        "A core is one instant: each thread's registers still say which syscall it waits in and on which "
        "futex (with or without a timeout), and pystack reads every thread's native and Python stacks and "
        "who holds the GIL, so a deadlock whose shape the stacks show is named as it would be live. "
        f"It does not hold: {lacks}. So a spin reads as work (*stalled* or *idle*, never *livelock*), a "
        "wait on a pipe or socket is not followed to its other end, and no rule across processes applies.",
        "",
    ]
