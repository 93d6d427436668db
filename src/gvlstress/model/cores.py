"""Kept hangs: a core of a hung worker written before it was killed, and what judging one
offline can and cannot say."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KeptCore:
    """A compressed core of one hung worker (``run --keep-core``), or why there is none."""

    path: str
    """Where it is (in run.json: relative to the run directory)."""
    writer: str
    """'gvlstress' (its own writer: /proc/PID/mem, maps and each thread's registers) or 'gcore'."""
    ok: bool
    seconds: float
    """How long the worker was held stopped (its memory copied; compressed after)."""
    file_bytes: int = 0
    """The compressed file on disk."""
    saved_bytes: int = 0
    """Memory saved in it (uncompressed)."""
    left_out_bytes: int = 0
    """Memory the process had written that the size bound left out (largest mappings first)."""
    limit_bytes: int = 0
    threads: int = 0
    executable: str = ""
    """The process's program (``--exe`` of ``gvlstress inspect --core``), redacted."""
    total_s: float = 0.0
    """Held, copied and compressed."""
    error: str | None = None


CORE_LACKS = (
    "kernel wait channels (wchan)",
    "CPU over a window (a spin looks like work)",
    "context switches and syscall counts",
    "what each descriptor is (a read's pipe or socket, /proc/locks)",
    "children, parents and peers (the rules across processes)",
)
"""What /proc gives a live look that a core does not hold: where the offline verdict is weaker."""


@dataclass(frozen=True)
class CoreSource:
    """`gvlstress inspect --core`: the core a verdict was judged from, offline."""

    core: str
    executable: str
    writer_hint: str
    """Who wrote it, as far as its notes tell ('gvlstress', 'gcore or the kernel')."""
    threads: int
    saved_bytes: int
    lacks: tuple[str, ...] = CORE_LACKS
