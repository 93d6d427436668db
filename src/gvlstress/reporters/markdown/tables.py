"""Markdown primitives: inline code, tables, code blocks, free text, values as a reader writes
them; and the cut that keeps a long document valid.

What a report shows came from outside (a loader's message, a thread name, a stack tool's
output): a line break would end a table row, backticks a code block, ``</details>`` a collapsed
section. Each primitive keeps its own construct whole whatever the text holds (control
characters are escaped once, over the whole document: `system.text.printable`).
"""

from __future__ import annotations

import re

from gvlstress.system.text import clip, one_line

PROSE_CHARS = 1000
"""One free-text line (a verdict, a piece of evidence, a warning) is cut to this."""
_TAG = re.compile(r"<(?=[A-Za-z/!?])")
_FENCE = re.compile(r" {0,3}(`{3,})")
_OPENS = re.compile(r" {0,3}(```|~~~)")


def code(text: str) -> str:
    quote = "'"
    return f"`{one_line(text).replace('`', quote)}`"


def prose(text: str, limit: int = PROSE_CHARS) -> str:
    """Free text from outside on one line: cut to `limit`, no line break, nothing that reads as
    an HTML tag (``&lt;details>``: a stray tag would open a section nothing closes), and no
    code fence at its start (escaped: ``\\```)."""
    said = _TAG.sub("&lt;", clip(one_line(text), limit))
    return "\\" + said.lstrip(" ") if _OPENS.match(said) else said


def html(text: str) -> str:
    """Text inside an HTML element (a ``<summary>``), escaped as HTML."""
    return one_line(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def fenced(text: str, info: str = "text") -> list[str]:
    """A code block whose fence is longer than any run of backticks in `text`, so nothing in it
    can close it early."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{info}", text, fence]


def ending(text: str, limit: int = 4000) -> str:
    """The end of a long text (a traceback ends where it failed), from a line's start."""
    if len(text) <= limit:
        return text
    tail = text[-limit:]
    return "[...]\n" + tail[tail.find("\n") + 1 :] if "\n" in tail else "[...]" + tail


def span_of(xs: list[float]) -> str:
    lo, hi = f"{min(xs):.1f}", f"{max(xs):.1f}"
    return lo if lo == hi else f"{lo}-{hi}"


def value_of(v: object) -> str:
    """A setting as a reader writes it: true/false, 2.5 not 2.5000, no Python reprs."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += [
        "| " + " | ".join(clip(one_line(c), PROSE_CHARS).replace("|", "\\|") for c in row) + " |"
        for row in rows
    ]
    return out


def fit(head: list[str], tail: list[str], limit: int, note: str) -> str:
    """`head`, `note` and `tail` as one document of at most `limit` characters: `head` loses
    whole lines from its end, and a code block or a ``<details>`` left open by the cut is
    closed, so what remains renders as it was meant to. Lines longer than the room are cut."""
    tail_text = "\n".join(clip(line, limit // 8) for line in tail) + "\n"
    room = limit - len(tail_text) - len(note) - 64
    kept: list[str] = []
    fence: str | None = None
    opened = 0
    used = 0
    for line in head:
        line = clip(line, max(room // 4, 80))
        if used + len(line) + 1 > room - 12 * opened - len(fence or "") - 2:
            break
        kept.append(line)
        used += len(line) + 1
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
        elif (
            fence is not None
            and m
            and line.strip() == "`" * len(line.strip())
            and len(m.group(1)) >= len(fence)
        ):
            fence = None
        elif fence is None and line.startswith("<details"):
            opened += 1
        elif fence is None and line.startswith("</details>"):
            opened = max(opened - 1, 0)
    closing = ([fence] if fence else []) + ["", "</details>"] * opened
    return "\n".join([*kept, *closing, "", note, "", tail_text])[:limit]
