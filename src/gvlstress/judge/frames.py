"""How stacks and thread ids are written short for a reader: recursion folded, generic
arguments cut, runs of thread ids spanned (pure; the full names stay in run.json and the dumps)."""

from __future__ import annotations

from gvlstress.model import Frame, ThreadView


def span(tids: tuple[int, ...]) -> str:
    """Thread ids compactly: a run as 'a-b', a long list cut."""
    if len(tids) > 3 and tids[-1] - tids[0] == len(tids) - 1:
        return f"{tids[0]}-{tids[-1]}"
    if len(tids) > 6:
        return ", ".join(map(str, tids[:4])) + f", ... ({len(tids)} in all)"
    return ", ".join(map(str, tids))


def collapse_recursion(names: tuple[str, ...], longest: int = 16) -> tuple[str, ...]:
    """Fold directly repeated runs of frames (rayon's join recursion) into one copy.

    Pool threads stuck in the same place differ only in how deep work stealing recursed;
    folded, their stacks compare equal and group together.
    """
    folded, _ = fold_frames(tuple(Frame(n) for n in names), longest)
    return tuple(f.name for f in folded)


def fold_frames(frames: tuple[Frame, ...], longest: int = 16) -> tuple[tuple[Frame, ...], int]:
    """`collapse_recursion` on frames (by name): the folded stack and how many frames went."""
    out = list(frames)
    names = [f.name for f in out]
    changed = True
    while changed:
        changed = False
        for size in range(1, longest + 1):
            i = 0
            while i + 2 * size <= len(names):
                if names[i] == names[i + size] and names[i : i + size] == names[i + size : i + 2 * size]:
                    del out[i + size : i + 2 * size]
                    del names[i + size : i + 2 * size]
                    changed = True
                else:
                    i += 1
    return tuple(out), len(frames) - len(out)


def short_name(name: str, keep: int = 1) -> str:
    """A symbol for reading: generic arguments nested deeper than `keep` levels become '…'
    (``catch_unwind<core::panic::AssertUnwindSafe<...>>`` -> ``catch_unwind<core::panic::AssertUnwindSafe<…>>``).
    The full name stays in run.json and the raw dumps."""
    out: list[str] = []
    depth = 0
    for ch in name:
        if ch == "<":
            depth += 1
            if depth == keep + 1:
                out.append("<…")
                continue
        elif ch == ">":
            depth -= 1
            if depth == keep:
                out.append(">")
                continue
        if depth <= keep:
            out.append(ch)
    return "".join(out)


def tids(threads: list[ThreadView]) -> str:
    """Thread ids for the reader: the first six, and how many in all."""
    ids = [t.tid for t in threads]
    return ", ".join(map(str, ids[:6])) + (f", ... ({len(ids)} in all)" if len(ids) > 6 else "")
