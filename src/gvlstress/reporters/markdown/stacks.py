"""Stacks for reading: one collapsed block per captured process, one per distinct stack inside."""

from __future__ import annotations

from gvlstress.judge.explain import stack_groups
from gvlstress.judge.frames import fold_frames, short_name
from gvlstress.judge.vocab import where
from gvlstress.model import Capture, Frame
from gvlstress.reporters.markdown.tables import fenced, html, prose
from gvlstress.system.text import one_line

MAX_FRAMES = 40


MAX_LINE = 240
"""A frame line longer than this (gdb's template-heavy Rust symbols) is cut."""


def _short_path(path: str) -> str:
    """The last three parts of a source path (``rayon-1.12.0/src/iter/map.rs`` reads as well as
    ``/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/rayon-1.12.0/src/iter/map.rs``)."""
    parts = path.split("/")
    return "/".join(parts[-3:]) if len(parts) > 3 else path


def _frames_text(frames: tuple[Frame, ...], limit: int = MAX_FRAMES) -> str:
    """Frames one per line, rayon's join/steal recursion folded, long symbols cut."""
    folded, dropped = fold_frames(frames)
    lines = []
    for i, f in enumerate(folded[:limit]):
        loc = f" ({_short_path(f.file)}:{f.line})" if f.file and f.line else ""
        line = one_line(f"#{i:<3}{short_name(f.name)}{loc}")
        lines.append(line if len(line) <= MAX_LINE else line[: MAX_LINE - 3] + "...")
    if len(folded) > limit:
        lines.append(f"... {len(folded) - limit} more frames")
    if dropped:
        lines.append(f"({dropped} frames of repeated recursion folded)")
    return "\n".join(lines)


def stacks_section(cap: Capture, title: str, limit: int = MAX_FRAMES) -> list[str]:
    """One collapsed block per worker; inside, one per distinct stack with a thread count."""
    groups = stack_groups(cap)
    out = [
        f"<details><summary>{html(title)}: {len(cap.threads)} threads, {len(groups)} distinct stacks</summary>",
        "",
    ]
    for g in groups:
        first = g.shown
        futex = f" on futex {first.futex_addr:#x}" if first.futex_addr is not None else ""
        gil = " **holds the GIL**" if g.holds_gil else ""
        tids = ", ".join(str(t) for t in g.tids[:20]) + (" ..." if len(g.tids) > 20 else "")
        note = " (recursion depth varies; the shallowest shown)" if g.depth_varies else ""
        idle = f" (idle: {g.idle})" if g.idle else ""
        said = html(f"{g.who} ({first.state}{futex}") + gil + html(f"): {where(first)}{idle}")
        out += [
            f"<details><summary>{said}</summary>",
            "",
            f"tids: {tids}{note}",
            "",
        ]
        if first.native:
            out += ["native:", "", *fenced(_frames_text(first.native, limit)), ""]
        elif not (first.python and first.python.frames):
            out += ["(no stack: see the missing views above)", ""]
        py = first.python
        if py and py.frames:
            out += [
                f"py-spy (thread {prose(str(py.name), 200)}, {'active' if py.active else 'idle'}):",
                "",
                *fenced(_frames_text(py.frames, limit)),
                "",
            ]
        out += ["</details>", ""]
    out += ["</details>", ""]
    return out
