"""Hangs that burn CPU (pure): a thread spinning in one loop for something that cannot come.

A thread **spins** when, over the window, it wanted the CPU all along (it ran, or waited to
run: a spinner on a loaded host gets little CPU but is runnable throughout), moved no byte, and
its stacks never left one loop: every native look shares the same frames down to a frame of the
library (the loop), and every Python look shows the same line. Real compute differs in its
stacks (numpy's kernels, rayon's jobs and a Python loop that advances show other frames or lines
from one look to the next) or its counters (page faults, bytes). A spin alone is only ``busy``:
it becomes a hang when the judge can name what it spins on and why that never comes:

- the GIL: the spinner holds the GIL at every look while threads started by its own library
  wait for the GIL (they call back into Python): it waits for them, they for it;
- a fork: a forked child's only thread spins in a library whose threads stayed in the parent;
- fork() itself: a prepare handler spins, waiting for threads that wait on nothing outside the
  process.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gvlstress.judge import vocab
from gvlstress.judge.case import Case, Found
from gvlstress.judge.forks import PREFORK, library_of, short_lib
from gvlstress.judge.names import FORK_AFTER_INIT, FORK_HANDLER, GIL_SPIN, HINTS, Match
from gvlstress.judge.otherend import internal_wait
from gvlstress.judge.runtimes import started_in
from gvlstress.judge.threads import LIVELOCK_CPU_SHARE, wants_cpu
from gvlstress.model import Capture, Frame, ProbeFinding, ProbeKind, ThreadDelta, ThreadView
from gvlstress.model.evidence import (
    ForkNoExec,
    GilHolderSpins,
    LibrarySpin,
    LibThreadsWaitGil,
    OthersWaitInside,
    ParentSpinWorkers,
    PrepareHandlerSpin,
)
from gvlstress.model.wiring import Wiring


@dataclass(frozen=True)
class Spin:
    """A thread that spun over the window, and the loop it never left."""

    tid: int
    loop: str
    """The innermost frame every native look of the thread shares (its module, if unnamed)."""
    library: str | None
    """The module the loop is in (not the interpreter or the C library)."""
    looks: int
    """How many looks at its stacks agree."""
    cpu_s: float
    still: bool
    """Its innermost frame was the same at every look (a tight spin-wait: a pause or a yield
    loop); a wider loop (a task executor polling its queues) shares only the loop's frame."""


def _common_root(stacks: list[tuple[Frame, ...]]) -> list[Frame]:
    """The frames every stack shares, from the outermost inward (names compared)."""
    if not stacks:
        return []
    outer = [list(reversed(s)) for s in stacks]
    common: list[Frame] = []
    for frames in zip(*outer, strict=False):
        if any(
            f.name != frames[0].name or (f.module or f.file) != (frames[0].module or frames[0].file)
            for f in frames
        ):
            break
        common.append(frames[0])
    return common


def _python_still(capture: Capture, tid: int) -> bool:
    """Every Python look at `tid` shows the same innermost Python frame and line (or none)."""
    seen = []
    for t in capture.threads:
        if t.tid == tid and t.python is not None:
            seen.append(vocab.python_line(t))
    for s in capture.resamples:
        for p in s.python:
            if p.tid == tid:
                view = ThreadView.of(tid, p)
                seen.append(vocab.python_line(view))
    return len(set(seen)) <= 1


def spin_of(t: ThreadDelta, capture: Capture | None, window: float) -> Spin | None:
    """`t` spun in one loop over the window, or None (it waits, moves data, or its stack moved)."""
    if capture is None or not wants_cpu(t, window) or t.parked or (t.moved or 0) > 0:
        return None
    first = capture.thread(t.tid)
    if first is None or not first.native:
        return None
    stacks = [first.native, *(n.frames for s in capture.resamples for n in s.native if n.tid == t.tid)]
    if len(stacks) < 2 or not _python_still(capture, t.tid):
        return None
    common = _common_root(stacks)
    lib = next((m for f in reversed(common) if (m := library_of(f)) is not None), None)
    if lib is None:
        return None  # the looks part inside the interpreter or libc: not one loop of a library
    inner = common[-1]
    loop = inner.name if inner.name not in ("??", "", "???") else short_lib(lib)
    still = all(len(s) == len(common) for s in stacks)
    return Spin(t.tid, loop, lib, len(stacks), t.cpu_s, still)


def gil_spin(f: ProbeFinding, capture: Capture | None) -> Match | None:
    """The GIL holder spins in a library's loop while threads that library started wait for
    the GIL."""
    if capture is None:
        return None
    views = {v.tid: v for v in capture.threads}
    for t in f.threads:
        v = views.get(t.tid)
        if v is None or not v.owns_gil or not _owns_throughout(capture, t.tid):
            continue
        spin = spin_of(t, capture, f.window_s)
        if spin is None or spin.library is None:
            continue
        waiters = [  # parked, or queued for a CPU between its 5 ms wake-ups on a crowded host
            w
            for w in f.threads
            if w.tid != t.tid
            and (w.parked or w.cpu_s < LIVELOCK_CPU_SHARE * f.window_s)
            and (wv := views.get(w.tid)) is not None
            and vocab.is_gil_wait(wv)
            and started_in(wv, (spin.library,))
        ]
        if not waiters:
            continue
        lib = short_lib(spin.library)
        w0 = views[waiters[0].tid]
        return Match(
            GIL_SPIN,
            HINTS[GIL_SPIN],
            (
                GilHolderSpins(
                    t.tid, vocab.role(v, f.pid), lib, spin.loop, t.cpu_s, spin.looks, vocab.python_line(v)
                ),
                LibThreadsWaitGil(tuple(w.tid for w in waiters), lib, vocab.first(w0, vocab.GIL_WAIT)),
            ),
        )
    return None


def _owns_throughout(capture: Capture, tid: int) -> bool:
    """Held the GIL at the first look and at every Python resample."""
    looks = [p.owns_gil for s in capture.resamples for p in s.python if p.tid == tid]
    return all(looks)


def fork_spin(f: ProbeFinding, capture: Capture | None, parent: Capture | None) -> Match | None:
    """A forked child whose only thread spins in a library whose threads stayed in the parent."""
    if capture is None or parent is None or capture.forked_from is None or len(f.threads) != 1:
        return None
    t = f.threads[0]
    spin = spin_of(t, capture, f.window_s)
    if spin is None or spin.library is None or not spin.still:
        return None  # a kernel whose frames move computes; a spin-wait stays put
    theirs = [v for v in parent.threads if started_in(v, (spin.library,))]
    if not theirs:
        return None
    lib = short_lib(spin.library)
    return Match(
        FORK_AFTER_INIT,
        HINTS[FORK_AFTER_INIT],
        (
            ForkNoExec(f.pid, capture.forked_from),
            LibrarySpin(t.tid, lib, spin.loop, t.cpu_s, f.window_s, spin.looks),
            ParentSpinWorkers(len(theirs), lib),
        ),
    )


def handler_spin(f: ProbeFinding, capture: Capture | None, wiring: Wiring) -> Match | None:
    """fork() spinning in a prepare handler for threads that wait on nothing outside."""
    if capture is None:
        return None
    p = f.progress_thread()
    view = capture.thread(p.tid if p is not None else None)
    if p is None or view is None or not vocab.has(view, PREFORK):
        return None
    spin = spin_of(p, capture, f.window_s)
    if spin is None or not spin.still:
        return None
    rest = [t for t in f.threads if t.tid != p.tid]
    if not all(internal_wait(t, f.pid, wiring, timers=True) for t in rest):
        return None
    return Match(
        FORK_HANDLER,
        HINTS[FORK_HANDLER],
        (
            PrepareHandlerSpin(p.tid, vocab.first(view, PREFORK), spin.loop, p.cpu_s, spin.looks),
            OthersWaitInside(len(rest)),
        ),
    )


def judge_spins(case: Case) -> Found | None:
    """A named spin as a livelock; None when no rule names what the spin waits for."""
    f, capture, parent, wiring = case.finding, case.capture, case.origin, case.wiring
    if f.kind not in (ProbeKind.BUSY, ProbeKind.LIVELOCK):
        return None
    named = gil_spin(f, capture) or fork_spin(f, capture, parent) or handler_spin(f, capture, wiring)
    if named is None:
        return None
    what = {
        GIL_SPIN: "the GIL's holder spins waiting for threads that wait for the GIL",
        FORK_AFTER_INIT: "a forked child spins waiting for pool threads that fork() did not copy",
        FORK_HANDLER: "fork() never returns: an at-fork handler spins waiting for threads that will not come",
    }[named.pattern]
    return replace(f, kind=ProbeKind.LIVELOCK, reason=what), named
