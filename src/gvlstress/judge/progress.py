"""What counts as progress for a job gvlstress did not write (pure): ``watch``'s stall detector.

A job makes progress when it does something a hung one cannot: it writes data or output, reads
more than a wake-up's few bytes, touches new memory, or starts or ends processes. CPU time alone
is **not** progress: a spin (the GIL's holder busy-waiting, a forked child in a pool's spin-wait)
burns CPU forever, and a hung loop that re-arms a timer wakes and sleeps again; counting either
would hide exactly the hangs a watchdog is for. So a job that only burns CPU, or only wakes, is
*quiet*, and a quiet job is looked at: the look (not this rule) tells a spin from long pure
computation, and healthy-but-quiet is noted and watched on.

With an explicit signal (``--heartbeat FILE``, ``--progress-regex``), only that signal counts:
a job whose hang still logs ("waiting for workers...") is quiet as it should be.
"""

from __future__ import annotations

from gvlstress.model.watch import Progress, TreeReading

READ_FLOOR = 4096
"""Bytes read across the tree that count: more than wake-ups and self-pipes move (8 bytes an
eventfd read, 1 a self-pipe), less than any real input."""
WRITE_FLOOR = 64
"""Bytes written across the tree that count: a line of output."""
FAULT_FLOOR = 64
"""New pages touched across the tree that count: real work allocates; a waiting interpreter
touches none (a spin, none either)."""


def _sum(r: TreeReading, field: str, pids: frozenset[int]) -> int:
    return sum(getattr(p, field) or 0 for p in r.procs if p.pid in pids)


def between(a: TreeReading, b: TreeReading, explicit: bool = False) -> Progress:
    """What `b` shows that `a` did not, as progress (empty: quiet)."""
    signs: list[str] = []
    if b.heartbeat_mtime is not None and b.heartbeat_mtime != a.heartbeat_mtime:
        signs.append("the heartbeat file was touched")
    if b.matched_lines > a.matched_lines:
        signs.append(f"{b.matched_lines - a.matched_lines} line(s) matched --progress-regex")
    if explicit:
        return Progress(tuple(signs))
    born, gone = b.pids() - a.pids(), a.pids() - b.pids()
    if born or gone:
        signs.append(f"{len(born)} process(es) started, {len(gone)} ended")
    both = a.pids() & b.pids()
    wrote = _sum(b, "wchar", both) - _sum(a, "wchar", both)
    if wrote > WRITE_FLOOR:
        signs.append(f"{wrote} bytes written")
    read = _sum(b, "rchar", both) - _sum(a, "rchar", both)
    if read > READ_FLOOR:
        signs.append(f"{read} bytes read")
    faults = _sum(b, "minflt", both) - _sum(a, "minflt", both)
    if faults > FAULT_FLOOR:
        signs.append(f"{faults} new pages touched")
    if b.output_lines > a.output_lines:
        signs.append(f"{b.output_lines - a.output_lines} line(s) of output")
    return Progress(tuple(signs))
