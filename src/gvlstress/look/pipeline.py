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

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from gvlstress.judge.across import Judged, judge_look
from gvlstress.judge.settle import TRUSTED_EARLY, needs_stacks, settled
from gvlstress.judge.threads import shared_futex_waiters
from gvlstress.judge.verdict import judge
from gvlstress.look.family import (
    descendants,
    origins_of,
    peers_of,
    relatives_of,
    waited_on,
    zombies_of,
)
from gvlstress.look.host import LIVE, Host
from gvlstress.look.series import Series, Taker
from gvlstress.look.series import window as window_of
from gvlstress.look.windows import LOOK_WINDOW_S, RUN_WINDOW_S
from gvlstress.model import ProbeKind, ProcSample
from gvlstress.model.look import Look, Looked, Subject
from gvlstress.model.wiring import Exit, Wiring
from gvlstress.probes import capture, procfs
from gvlstress.probes.capture import Stacks
from gvlstress.probes.tools import Hung

__all__ = ["LOOK_WINDOW_S", "RUN_WINDOW_S", "Seen", "look_and_judge", "look_at"]

PAIR_S = procfs.PROBE_WINDOW_S
"""Between the two /proc samples of stage 1 (CPU and switch deltas need both)."""
STILL_PAIR_S = 0.15
"""Between them where every thread sleeps in a syscall: enough for a timed waiter's tick (the GIL's
5 ms, a poll's 100 ms) to show as a switch; anything that moves gets the full PAIR_S."""


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
    exited: tuple[Exit, ...] = (),
    host: Host = LIVE,
) -> Seen:
    """Look at `subjects` (and, with `tree`, their descendants; always the peers at the other end
    of what they wait on, and the parents they were forked from), then judge them together.

    `adaptive` (``run``, ``watch``): spend the window only on what one snapshot left open;
    otherwise (``inspect``) every process is looked at over the whole window. `hung` keeps the
    stack tools that ran out of time, so a wave or a watch asks a hung tool once. `exited`:
    what a watch saw exit before this look (its history), for the chains' words. `host`: what the
    look reads the processes and the time through (`look.host`; this machine by default)."""
    look = look_at(subjects, window, tree=tree, adaptive=adaptive, hung=hung, host=host)
    if exited:
        look = replace(look, relatives=replace(look.relatives, exited=exited))
    return Seen(look, judge_look(look))


def look_at(
    subjects: Sequence[Subject],
    window: float = LOOK_WINDOW_S,
    *,
    tree: bool = False,
    adaptive: bool = False,
    hung: Hung | None = None,
    host: Host = LIVE,
) -> Look:
    """The look itself (see the module's docstring); `look_and_judge` judges it."""
    hung = hung if hung is not None else Hung()
    asked = {s.pid: s for s in subjects}
    focus = [s.pid for s in subjects if s.focus]
    me = host.me()
    below = [k for p in focus for k in descendants(p, host=host)] if tree else []
    # never itself nor its own helpers and tools when it runs inside the tree it looks at (the
    # pytest plugin's watch, a child of pytest): its look would otherwise judge itself
    own = {me, *descendants(me, host=host)} if me in below else {me}
    kids = list(dict.fromkeys(k for k in below if k not in asked and k not in own))
    peers = (
        [p for p in peers_of([*focus, *kids], host) if p not in asked and p not in kids and p not in own]
        if focus
        else []
    )
    forks = origins_of([*focus, *kids, *peers], host)
    parents = [p for p in forks if p not in own and p not in asked and p not in kids and p not in peers]
    relatives = list(dict.fromkeys([*kids, *peers, *parents]))
    family = [*asked, *relatives]
    before = {p: zombies_of(p, host) for p in family}
    series = {
        p: Series(sub, _start(sub, adaptive, host), host)
        for p in family
        if (sub := asked.get(p) or Subject(p))
    }
    if tree:
        for p in series:
            series[p].note_kids(host.monotonic())
    spent = 0.0
    mine: Stacks | None = None
    with ThreadPoolExecutor(max_workers=len(series) + 1, thread_name_prefix="gvlstress-look") as pool:
        stacks = Taker(pool, series, hung, host)
        if adaptive:
            left = _snapshot(series, stacks, set(focus), set(relatives), tree)
            wide = set(left) | set(relatives) if left else set()
        else:
            stacks(series)
            wide = set(series)
        if wide:
            spent = window_of(series, wide, window, stacks, kids=tree)
            if me in forks:  # the harness forked the workers: the parent's threads are evidence
                mine = host.stacks(me, True, hung, python_view=False)
    processes = {p: x.looked() for p, x in series.items()}
    if mine is not None and (now := host.sample(me)) is not None:
        f = judge(now, now, progress=False)
        processes[me] = Looked(f, capture.assemble(f, mine), ())
    alive = [p for p, x in processes.items() if x.finding.kind is not ProbeKind.GONE and p != me]
    churn = {p: c for p, x in series.items() if (c := x.churn()) is not None}
    return Look(
        processes,
        replace(relatives_of(alive, before, tree, host), churn=churn),
        _wiring(processes, alive, host),
        frozenset(p for p, s in asked.items() if s.progress),
        tuple(asked),
        spent,
        frozenset({me}) if mine is not None else frozenset(),
    )


def _start(sub: Subject, adaptive: bool, host: Host) -> ProcSample | None:
    """The first /proc sample: the caller's earlier one where the look is adaptive (``run``)."""
    if adaptive and sub.presample is not None:
        return sub.presample
    return host.sample(sub.pid)


def _pair(series: dict[int, Series], kids: set[int], host: Host) -> None:
    """Complete each series to a pair at least PAIR_S apart (the CPU and switch deltas), or
    STILL_PAIR_S apart where every thread was asleep in a syscall and nothing moved between the
    two (no CPU tick, no switch, no thread born or gone): a parked process is judged at once."""
    todo = [x for x in series.values() if len(x.samples) == 1]
    if not todo:
        return
    still = all(_asleep(x.samples[0]) for x in todo)
    last = max(x.samples[0].at for x in todo)
    host.sleep(max(0.0, (STILL_PAIR_S if still else PAIR_S) - (host.monotonic() - last)))  # the gap
    for pid, x in series.items():
        if len(x.samples) == 1:
            x.add(host.sample(pid), pid in kids)
    moved = [x for x in todo if len(x.samples) == 2 and not _same(*x.samples)] if still else []
    if moved:  # something stirred: the full gap, so CPU and switches have time to show
        host.sleep(max(0.0, PAIR_S - (host.monotonic() - last)))  # the pair's gap itself
        for x in moved:
            if (now := host.sample(x.subject.pid)) is not None:
                x.samples[-1] = now


def _asleep(s: ProcSample) -> bool:
    return all(t.state in ("S", "D") and t.syscall is not None for t in s.threads)


def _same(a: ProcSample, b: ProcSample) -> bool:
    """Nothing moved between the two samples: the same threads, each without a CPU tick, a
    context switch or a change of syscall."""

    def marks(s: ProcSample) -> dict[int, tuple[object, ...]]:
        return {
            t.tid: (t.utime, t.stime, t.voluntary_ctxt, t.nonvoluntary_ctxt, t.syscall, t.run_ns)
            for t in s.threads
        }

    return marks(a) == marks(b)


def _snapshot(
    series: dict[int, Series], stacks: Taker, focus: set[int], relatives: set[int], tree: bool
) -> list[int]:
    """Stages 1 and 2: /proc over a pair, then stacks of what /proc leaves open; returns the
    focused pids one snapshot did not settle (the window looks at them, with their relatives)."""
    for x in series.values():
        if x.samples and x.subject.presample is not None and x.samples[0] is x.subject.presample:
            x.add(stacks.host.sample(x.subject.pid), tree and x.subject.pid in focus)
            if len(x.samples) == 2 and x.judge().kind not in TRUSTED_EARLY:
                x.samples = x.samples[-1:]  # may hold the last work before the stall: a fresh pair
    _pair(series, focus if tree else set(), stacks.host)
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
        # children that came and went between two samples: a pool replacing workers, whatever the CPU says
        if not settled(f, cap, series[pid].subject.progress) or series[pid].churn() is not None:
            left.append(pid)
    return left


def _wiring(processes: dict[int, Looked], alive: list[int], host: Host) -> Wiring:
    """The wiring the rules need: the other ends of every pipe, socket and terminal any thread
    waits on (a cycle of waits may go through any thread: a server thread reading a connection
    whose other end the main thread keeps; one scan of /proc/*/fd finds them all)."""
    findings = [processes[p].finding for p in alive]
    waited = waited_on(t for f in findings for t in f.threads)
    shared = [
        (f.pid, t.futex_addr)
        for f in findings
        for t in shared_futex_waiters(f.threads)
        if t.futex_addr is not None
    ]
    return replace(host.wiring(alive, waited), shared=host.shared_locks(shared))
