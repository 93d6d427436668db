"""The words of a wait-for chain (`model.waitfor.WaitFor`): one line for a terminal, the whole
chain for a report. A hang's end and a healthy wait's end are worded apart by their kind."""

from __future__ import annotations

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
    """'wait-for chain ends in a cycle (through process 12): <the end's first object>'."""
    via = f" (through process {', '.join(map(str, w.through))}, waiting forever itself)" if w.through else ""
    first = w.parties[0] if w.parties else ""
    return f"wait-for chain {END_WORDS[w.end]}{via}" + (f": {first}" if first else "")


def chain_lines(w: WaitFor) -> list[str]:
    """Every link, the end with its objects, and what was checked."""
    out = [
        f"process {link.pid}"
        + (f" thread {link.tid}" if link.tid is not None else "")
        + f" waits in {link.waits}"
        for link in w.links
    ]
    out.append(end_line(w))
    out += list(w.parties[1:])
    out += [f"checked: {c}" for c in w.checked]
    return out
