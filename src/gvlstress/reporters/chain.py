"""The words of a wait-for chain (`model.waitfor.WaitFor`): one line for a terminal, the whole
chain for a report. A hang's end and a healthy wait's end are worded apart by their kind."""

from __future__ import annotations

from gvlstress.model import Diagnosis
from gvlstress.model.waitfor import End, WaitFor

END_WORDS = {
    End.CYCLE: "ends in a cycle",
    End.SELF: "ends in a self-wait",
    End.GONE: "ends in a dead or gone party",
    End.NOBODY: "ends in nobody: nothing left can end it",
    End.OUTSIDE: "may still be ended from outside",
    End.WORKING: "no wait: it works",
}


def end_line(w: WaitFor) -> str:
    """'wait-for chain: thread 12 waits in <wait> -> through process 30 -> ends in a cycle: <its
    first object>': the whole chain in one line, for a terminal."""
    steps = [f"thread {link.tid} of process {link.pid} waits in {link.waits}" for link in w.links[:1]]
    steps += [f"process {p} (waiting forever itself)" for p in w.through]
    return "wait-for chain: " + " -> ".join([*steps, f"{END_WORDS[w.end]}{_first(w)}"])


def _first(w: WaitFor) -> str:
    """The end's first object (a line that introduces a list takes its first item along),
    else, for an end in nobody, the first thing checked."""
    parts = list(w.parties)
    if parts and parts[0].rstrip().endswith(":") and len(parts) > 1:
        parts[0] = parts[0].rstrip()[:-1] + ": " + parts[1]
    if parts:
        return ": " + parts[0]
    return ": " + "; ".join(w.checked[:2]) if w.checked else ""


def chain_lines(w: WaitFor) -> list[str]:
    """Every link, the end with its objects, and what was checked."""
    out = [
        f"process {link.pid}"
        + (f" thread {link.tid}" if link.tid is not None else "")
        + f" waits in {link.waits}"
        for link in w.links
    ]
    out += [f"through process {p}, which waits forever itself" for p in w.through]
    out.append(END_WORDS[w.end] + (":" if w.parties else ""))
    out += list(w.parties)
    out += [f"checked: {c}" for c in w.checked]
    return out


def fix_line(d: Diagnosis) -> str | None:
    """The one line under a hang's verdict in a terminal: its pattern's hint, else the end of its
    chain to look at; None for a verdict that is no hang."""
    if not d.verdict.is_hang:
        return None
    if d.hint:
        return f"fix: {d.hint}"
    if d.waitfor is not None and d.waitfor.parties:
        return f"fix: look at where its wait-for chain ends: {d.waitfor.parties[0]}"
    return None
