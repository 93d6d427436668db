"""One process over a look: its /proc samples, its stacks (first and later), its children over the
window and the locals a rule asked for; and the window itself, which fills them in.

Over a window every process is sampled from /proc every `EVERY_S` (CPU, switches, syscalls, bytes
moved, its children), its Python stacks taken again between (py-spy alone: ~20 ms) and its native
stacks once more at the end where a thread burned CPU (was its stack still in one loop?). The
first /proc sample comes before any ptrace tool touches the process; a timed wait that a tool's
stop moved into ``restart_syscall`` is read from that first sample (`judge.threads`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from gvlstress.judge.across import LOCALS_WANTED
from gvlstress.judge.threads import cut_short, wants_cpu_between
from gvlstress.judge.verdict import decide, judge
from gvlstress.look.host import LIVE, Host
from gvlstress.model import Capture, ProbeFinding, ProbeKind, ProcSample
from gvlstress.model.look import Looked, Subject
from gvlstress.model.stacks import Local
from gvlstress.model.syscalls import syscall_name
from gvlstress.model.wiring import Churn
from gvlstress.probes import capture
from gvlstress.probes.capture import Stacks
from gvlstress.probes.tools import Hung

EVERY_S = 0.4
"""Between two /proc samples, and two Python-stack looks, within a window."""


class Series:
    """What the look has read of one process so far: its /proc samples (the first and the last
    decide its finding), its first stacks and the later ones."""

    def __init__(self, subject: Subject, first: ProcSample | None, host: Host = LIVE) -> None:
        self.subject = subject
        self.host = host
        self.samples: list[ProcSample] = [first] if first is not None else []
        self.first: Stacks | None = None
        self.later: list[Stacks] = []
        self.kids: list[tuple[float, tuple[int, ...], dict[int, int]]] = []
        """Its children at each sample of the window, and the wait statuses of the dead ones."""
        self.locals: tuple[Local, ...] = ()

    def add(self, s: ProcSample | None, kids: bool = False) -> bool:
        """One more sample (and, with `kids`, its children now); False when the process is gone
        (or was never seen)."""
        if s is None or not self.samples:
            return False
        self.samples.append(s)
        if kids:
            self.note_kids(s.at)
        return True

    def note_kids(self, at: float) -> None:
        """Its children now, and the wait statuses of the dead ones among them."""
        now = self.host.children(self.subject.pid)
        dead = {c: st for c in now if (st := self.host.zombie_status(c)) is not None}
        self.kids.append((at, now, dead))

    def churn(self) -> Churn | None:
        """Its children coming and going over the window, where any did."""
        if len(self.kids) < 2:
            return None
        first = set(self.kids[0][1])
        seen: set[int] = set()
        gone: set[int] = set()
        for _, now, _ in self.kids:
            gone |= seen - set(now)
            seen |= set(now)
        born = seen - first
        if not born and not gone:
            return None
        statuses = tuple(st for _, _, dead in self.kids for st in dead.values())
        return Churn(
            len(self.kids),
            self.kids[-1][0] - self.kids[0][0],
            tuple(sorted(born)),
            tuple(sorted(gone)),
            statuses,
        )

    def looked(self) -> Looked:
        """What the look holds of it: the finding from its first and last samples, its capture."""
        f = self.judge()
        cap = None
        if self.first is not None and f.kind is not ProbeKind.GONE:
            cap = replace(capture.assemble(f, self.first, tuple(self.later)), locals=self.locals)
        taken = [self.first, *self.later] if self.first is not None else []
        stops = sum(int(st.pyspy.elapsed_s > 0) + int(st.native.elapsed_s > 0) for st in taken)
        return Looked(f, cap, tuple(self.samples), stops)

    def judge(self) -> ProbeFinding:
        s = self.samples
        a, b = (s[0], s[-1]) if len(s) > 1 else (s[0] if s else None, None)
        sub = self.subject
        f = judge(a, b, progress_tid=sub.progress_tid or sub.pid, progress=sub.progress)
        return replace(f, samples=tuple(s)) if len(s) > 2 else f

    def decided(self) -> tuple[ProbeFinding, Capture | None]:
        """The finding so far, decided with the stacks taken so far."""
        f = self.judge()
        cap = (
            capture.assemble(f, self.first)
            if self.first is not None and f.kind is not ProbeKind.GONE
            else None
        )
        return decide(f, cap, progress=self.subject.progress), cap


class Taker:
    """Takes stacks of many processes at once (each tool with its own deadline), into their series."""

    def __init__(
        self, pool: ThreadPoolExecutor, series: dict[int, Series], hung: Hung, host: Host = LIVE
    ) -> None:
        self.pool, self.series, self.hung, self.host = pool, series, hung, host

    def __call__(self, pids: Iterable[int], native_view: bool = True) -> None:
        todo = []
        for p in pids:
            x = self.series[p]
            if not x.samples:
                continue
            writer = cut_short(x.samples[-1])
            if writer is not None:  # judged from /proc alone: a stop would end its write short
                if x.first is None:
                    x.first = capture.untouched(
                        p,
                        x.samples[-1].at,
                        f"thread {writer.tid} is blocked in {syscall_name(writer.syscall)}() on "
                        f"{writer.fd_target or 'a System V semaphore or message queue'}",
                    )
                continue
            todo.append(p)
        taken = self.pool.map(lambda p: self.host.stacks(p, native_view, self.hung), todo)
        for pid, st in zip(todo, taken, strict=True):
            x = self.series[pid]
            if x.first is None:
                x.first = st
            else:
                x.later.append(st)
        self.locals([p for p in todo if not self.series[p].locals])

    def locals(self, pids: list[int]) -> None:
        """The locals a rule reads (`judge.across.LOCALS_WANTED`), once, of the processes whose
        stacks show such a frame (a queue's feeder, an event loop's turn)."""
        want = [p for p in pids if _shows(self.series[p].first, LOCALS_WANTED) and "py-spy" not in self.hung]
        for pid, found in zip(
            want, self.pool.map(lambda p: self.host.frame_locals(p, LOCALS_WANTED), want), strict=True
        ):
            self.series[pid].locals = found


def _shows(st: Stacks | None, wanted: Mapping[tuple[str, str], tuple[str, ...]]) -> bool:
    """A Python frame of `st` is one whose locals are wanted."""
    if st is None:
        return False
    return any(
        f.name.rsplit(".", 1)[-1] == fn and (f.file or "").endswith(suffix)
        for t in st.python
        for f in t.frames
        for suffix, fn in wanted
    )


KIDS_EVERY_S = 0.1
"""Between two reads of the children within a window's sampling interval: a pool replacing
workers that die in a fifth of a second (a spawn interpreter's start) shows them all."""


def _nap(seconds: float, watched: list[Series], host: Host) -> None:
    """Wait `seconds` (the window's own sampling interval), reading the children of `watched`
    every KIDS_EVERY_S meanwhile (cheap: /proc/PID/task/*/children)."""
    end = host.monotonic() + seconds
    while (left := end - host.monotonic()) > 0:
        host.sleep(min(left, KIDS_EVERY_S) if watched else left)  # the window's interval itself
        for x in watched:
            if x.samples:
                x.note_kids(host.monotonic())


def window(series: dict[int, Series], pids: set[int], seconds: float, stacks: Taker, kids: bool) -> float:
    """Look at `pids` over `seconds`: /proc every EVERY_S (with `kids`, their children too),
    Python stacks between, native stacks again where a thread burned CPU; returns the seconds
    looked (on the clock of the stacks' host, which every read goes through)."""
    host = stacks.host
    t0 = host.monotonic()
    live = [p for p in pids if series[p].samples]
    first = [p for p in live if series[p].first is None]
    stacks(first)
    cost = max(host.monotonic() - t0, 0.05)
    # the first stacks may take most of a short window: watch at least two intervals after them
    end = max(t0 + seconds, host.monotonic() + 2 * EVERY_S + cost)
    for p in live:
        if kids:
            series[p].add(host.sample(p), kids)
    while host.monotonic() + EVERY_S + cost < end:
        _nap(EVERY_S, [series[p] for p in live] if kids else [], host)
        alive = [p for p in live if series[p].add(host.sample(p), kids)]
        stacks(alive, False)
    _nap(max(0.0, end - cost - host.monotonic()), [series[p] for p in live] if kids else [], host)
    hot = [p for p in live if wants_cpu_between(series[p].samples[0], host.sample(p))]
    stacks(hot)
    for p in live:
        series[p].add(host.sample(p), kids)
    return host.monotonic() - t0
