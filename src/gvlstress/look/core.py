"""A core as a look: one process at one instant, judged by the same rules as a live one.

A core's threads still say which syscall each waits in and on which futex, and pystack reads
its Python and native stacks and who holds the GIL from it, so a deadlock whose shape the
stacks show is named offline as it was live. What a core does not hold (`model.cores.CORE_LACKS`)
leaves the rest weaker; no relatives, no wiring, no window.
"""

from __future__ import annotations

from pathlib import Path

from gvlstress.judge.across import judge_look
from gvlstress.judge.verdict import judge
from gvlstress.look.pipeline import Seen
from gvlstress.model.look import Look, Looked
from gvlstress.probes import capture, corefile, elfcore


def look_at_core(raw: Path, found: elfcore.CoreNotes, exe: str) -> Seen:
    """Judge the process of an unpacked core `raw` (its `found` notes), read with the program
    `exe` it ran."""
    stacks = corefile.stacks(raw, exe, found.pid)
    names = corefile.thread_names(stacks.native_raw)
    first, second = corefile.sample(found, names, 0.0), corefile.sample(found, names, corefile.WINDOW_S)
    finding = judge(first, second, progress_tid=found.pid, progress=False)
    cap = capture.assemble(finding, stacks)
    look = Look({found.pid: Looked(finding, cap, ())}, subjects=(found.pid,))
    return Seen(look, judge_look(look))
