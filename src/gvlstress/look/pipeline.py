"""The look pipeline: pids and what the caller knows of them in, one `Look` out, judged once.

Every caller goes through `look_at`: ``run`` at a stall (quiet workers, with a progress signal and
a /proc sample taken a window ahead), ``inspect`` and ``inspect --tree`` (no signal), ``watch`` (a
job's tree, a signal from its counters). The supervisor and the commands keep only *when* and
*whom*; what to read, in what order, and how long to look is decided here, and every verdict by
`judge.across.judge_look`.

The stages, each only where the one before could not decide (DESIGN 4c, the adaptive window):

1. /proc of every process: two samples (a caller's earlier sample counts as the first), judged
   from the thread that must progress. No ptrace.
2. Stacks (py-spy, then the native tool) of what /proc leaves open, all in parallel, and the
   finding decided again with them. A process the judge calls `settled` (a closed wait its own
   stacks name; an exit; under a progress signal, work that faults pages) is done here.
3. A window (``inspect``: always; ``run``: only for what stage 2 left open): /proc every
   `EVERY_S`, Python stacks between, native stacks again where a thread burned CPU; the
   relatives taken in (descendants, the other ends of waited pipes and sockets, the parent a
   fork came from), so the rules across processes apply in ``run`` as in ``inspect --tree``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from gvlstress.judge.across import (
    TRUSTED_EARLY,
    Judged,
    judge_look,
    needs_stacks,
    settled,
)
from gvlstress.judge.threads import wants_cpu_between
from gvlstress.judge.verdict import decide, judge
from gvlstress.look.family import (
    descendants,
    origins_of,
    peers_of,
    relatives_of,
    waited_on,
    zombies_of,
)
from gvlstress.model import Capture, ProbeFinding, ProbeKind, ProcSample
from gvlstress.model.look import Look, Looked, Subject
from gvlstress.model.wiring import Wiring
from gvlstress.probes import capture, procfs, wiring
from gvlstress.probes.capture import Stacks
from gvlstress.probes.tools import Hung

LOOK_WINDOW_S = 2.0
"""`inspect`'s default window: long enough for three looks at every stack and for a spin's CPU
to show against a GIL waiter's ticks, short enough to stay under 3 s on a 17-thread worker."""
RUN_WINDOW_S = 1.0
"""How long ``run`` (and ``watch``) look over a window at what one snapshot left open."""
EVERY_S = 0.4
"""Between two /proc samples, and two Python-stack looks, within a window."""
PAIR_S = procfs.PROBE_WINDOW_S
"""Between the two /proc samples of stage 1 (CPU and switch deltas need both)."""


@dataclass(frozen=True)
class Seen:
    """A look and its judgement: what the callers report from."""

    look: Look
    judged: Judged


def look_and_judge(
    subjects: Sequence[Subject],
    window: float = LOOK_WINDOW_S,
    *,
    tree: bool = False,
    adaptive: bool = False,
    hung: Hung | None = None,
) -> Seen:
    """Look at `subjects` (and, with `tree`, their descendants; always the peers at the other end
    of what they wait on, and the parents they were forked from), then judge them together.

    `adaptive` (``run``, ``watch``): spend the window only on what one snapshot left open;
    otherwise (``inspect``) every process is looked at over the whole window. `hung` keeps the
    stack tools that ran out of time, so a wave or a watch asks a hung tool once."""
    look = look_at(subjects, window, tree=tree, adaptive=adaptive, hung=hung)
    return Seen(look, judge_look(look))


class _Series:
    """What the look has read of one process so far: its /proc samples (the first and the last
    decide its finding), its first stacks and the later ones."""

    def __init__(self, subject: Subject, first: ProcSample | None) -> None:
        self.subject = subject
        self.samples: list[ProcSample] = [first] if first is not None else []
        self.first: Stacks | None = None
        self.later: list[Stacks] = []

    def add(self, s: ProcSample | None) -> bool:
        """One more sample; False when the process is gone (or was never seen)."""
        if s is None or not self.samples:
            return False
        self.samples.append(s)
        return True

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


class _Stacks:
    """Takes stacks of many processes at once (each tool with its own deadline), into their series."""

    def __init__(self, pool: ThreadPoolExecutor, series: dict[int, _Series], hung: Hung) -> None:
        self.pool, self.series, self.hung = pool, series, hung

    def __call__(self, pids: Iterable[int], native_view: bool = True) -> None:
        todo = [p for p in pids if self.series[p].samples]
        taken = self.pool.map(lambda p: capture.take(p, native_view, self.hung), todo)
        for pid, st in zip(todo, taken, strict=True):
            x = self.series[pid]
            if x.first is None:
                x.first = st
            else:
                x.later.append(st)


def look_at(
    subjects: Sequence[Subject],
    window: float = LOOK_WINDOW_S,
    *,
    tree: bool = False,
    adaptive: bool = False,
    hung: Hung | None = None,
) -> Look:
    """The look itself (see the module's docstring); `look_and_judge` judges it."""
    hung = hung if hung is not None else Hung()
    asked = {s.pid: s for s in subjects}
    focus = [s.pid for s in subjects if s.focus]
    kids = [k for p in focus for k in descendants(p) if k not in asked] if tree else []
    peers = [p for p in peers_of([*focus, *kids]) if p not in asked and p not in kids] if focus else []
    me = os.getpid()
    forks = origins_of([*focus, *kids, *peers])
    parents = [p for p in forks if p != me and p not in asked and p not in kids and p not in peers]
    relatives = list(dict.fromkeys([*kids, *peers, *parents]))
    family = [*asked, *relatives]
    before = {p: zombies_of(p) for p in family}
    series = {p: _Series(sub, _start(sub, adaptive)) for p in family if (sub := asked.get(p) or Subject(p))}
    spent = 0.0
    mine: Stacks | None = None
    with ThreadPoolExecutor(max_workers=len(series) + 1, thread_name_prefix="gvlstress-look") as pool:
        stacks = _Stacks(pool, series, hung)
        if adaptive:
            left = _snapshot(series, stacks, set(focus), set(relatives))
            wide = set(left) | set(relatives) if left else set()
        else:
            stacks(series)
            wide = set(series)
        if wide:
            spent = _window(series, wide, window, stacks)
            if me in forks:  # the harness forked the workers: the parent's threads are evidence
                mine = capture.take(me, True, hung, python_view=False)
    processes = {p: _looked(x) for p, x in series.items()}
    if mine is not None and (now := procfs.sample(me)) is not None:
        f = judge(now, now, progress=False)
        processes[me] = Looked(f, capture.assemble(f, mine), ())
    alive = [p for p, x in processes.items() if x.finding.kind is not ProbeKind.GONE and p != me]
    return Look(
        processes,
        relatives_of(alive, before, tree),
        _wiring(processes, alive),
        frozenset(p for p, s in asked.items() if s.progress),
        tuple(asked),
        spent,
        frozenset({me}) if mine is not None else frozenset(),
    )


def _start(sub: Subject, adaptive: bool) -> ProcSample | None:
    """The first /proc sample: the caller's earlier one where the look is adaptive (``run``)."""
    if adaptive and sub.presample is not None:
        return sub.presample
    return procfs.sample(sub.pid)


def _pair(series: dict[int, _Series]) -> None:
    """Complete each series to a pair at least PAIR_S apart (the CPU and switch deltas)."""
    firsts = [x.samples[0].at for x in series.values() if len(x.samples) == 1]
    if firsts:
        time.sleep(max(0.0, PAIR_S - (time.monotonic() - max(firsts))))  # the pair's gap itself
    for pid, x in series.items():
        if len(x.samples) == 1:
            x.add(procfs.sample(pid))


def _snapshot(series: dict[int, _Series], stacks: _Stacks, focus: set[int], relatives: set[int]) -> list[int]:
    """Stages 1 and 2: /proc over a pair, then stacks of what /proc leaves open; returns the
    focused pids one snapshot did not settle (the window looks at them, with their relatives)."""
    for x in series.values():
        if x.samples and x.subject.presample is not None and x.samples[0] is x.subject.presample:
            x.add(procfs.sample(x.subject.pid))
            if len(x.samples) == 2 and x.judge().kind not in TRUSTED_EARLY:
                x.samples = x.samples[-1:]  # may hold the last work before the stall: a fresh pair
    _pair(series)
    found = {p: x.judge() for p, x in series.items()}
    keen = focus | relatives
    if any(found[p].kind is ProbeKind.DEADLOCK for p in keen):
        keen = set(series)  # a hang is here: every process that needs stacks gets them now
    stacks(
        p
        for p in keen
        if needs_stacks(found[p]) or (p in focus and not settled(found[p], None, series[p].subject.progress))
    )
    left = []
    for pid in focus:
        f, cap = series[pid].decided()
        if not settled(f, cap, series[pid].subject.progress):
            left.append(pid)
    return left


def _window(series: dict[int, _Series], pids: set[int], window: float, stacks: _Stacks) -> float:
    """Look at `pids` over `window`: /proc every EVERY_S, Python stacks between, native stacks
    again where a thread burned CPU; returns the seconds looked."""
    t0 = time.monotonic()
    live = [p for p in pids if series[p].samples]
    first = [p for p in live if series[p].first is None]
    stacks(first)
    cost = max(time.monotonic() - t0, 0.05)
    end = t0 + window
    while time.monotonic() + EVERY_S + cost < end:
        time.sleep(EVERY_S)  # the sampling interval of the window itself
        alive = [p for p in live if series[p].add(procfs.sample(p))]
        stacks(alive, False)
    time.sleep(max(0.0, end - cost - time.monotonic()))  # the rest of the window
    hot = [p for p in live if wants_cpu_between(series[p].samples[0], procfs.sample(p))]
    stacks(hot)
    for p in live:
        series[p].add(procfs.sample(p))
    return time.monotonic() - t0


def _looked(x: _Series) -> Looked:
    f = x.judge()
    cap = None
    if x.first is not None and f.kind is not ProbeKind.GONE:
        cap = capture.assemble(f, x.first, tuple(x.later))
    taken = [x.first, *x.later] if x.first is not None else []
    stops = sum(int(st.pyspy.elapsed_s > 0) + int(st.native.elapsed_s > 0) for st in taken)
    return Looked(f, cap, tuple(x.samples), stops)


def _wiring(processes: dict[int, Looked], alive: list[int]) -> Wiring:
    """The wiring the rules need: what every progress thread waits on, and every pipe any
    thread waits on (a cycle of pipe waits may go through any thread)."""
    findings = [processes[p].finding for p in alive]
    main = waited_on(t for f in findings for t in f.threads if t.tid == f.progress_tid)
    pipes = {t for t in waited_on(t for f in findings for t in f.threads) if t.startswith("pipe:")}
    return wiring.wiring(alive, main | pipes)
