"""A look at live processes over a window: /proc at both ends and between, stacks several times.

One snapshot cannot tell a spin from work, or a wait that holds from one that is about to end.
Over a window (``inspect``'s default is `LOOK_WINDOW_S`) every process is sampled from /proc
every `EVERY_S` (CPU, switches, syscalls, bytes moved), its stacks are taken at the start (py-spy
and the native tool), its Python stacks again every `EVERY_S` (py-spy alone: ~20 ms), and its
native stacks once more at the end where a thread burned CPU (was its stack still in one loop?).
The first /proc sample comes before any ptrace tool touches the process; a timed wait that a
tool's stop moved into ``restart_syscall`` is read from that first sample (`judge.threads`).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Collection, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import psutil

from gvlstress.judge.look import Judged, judge_look
from gvlstress.judge.threads import LIVELOCK_CPU_SHARE, RUNNABLE_SHARE, cpu_between
from gvlstress.judge.verdict import judge
from gvlstress.model import Capture, ProbeFinding, ProbeKind, ProcSample, ThreadDelta, ThreadSample
from gvlstress.model.wiring import Relatives
from gvlstress.probes import capture, procfs, wiring

LOOK_WINDOW_S = 2.0
"""`inspect`'s default window: long enough for three looks at every stack and for a spin's CPU
to show against a GIL waiter's ticks, short enough to stay under 3 s on a 17-thread worker."""
EVERY_S = 0.4
"""Between two /proc samples, and two Python-stack looks, within a window."""


@dataclass(frozen=True)
class Looked:
    """One process over the window: the /proc finding (not yet decided with stacks), its
    capture (the first look's stacks merged by thread id, the later looks as resamples), and
    every /proc sample taken (the activity over the window)."""

    finding: ProbeFinding
    capture: Capture | None
    samples: tuple[ProcSample, ...]
    stops: int = 0
    """How often the look's stack tools stopped the process (one voluntary switch per thread
    each, which `judge.activity` discounts)."""


def _burning(first: ProcSample | None, now: ProcSample | None) -> bool:
    """Some thread used at least LIVELOCK_CPU_SHARE of a CPU since `first`, or was runnable
    most of the time (a spinner on a crowded host gets little CPU but always wants it)."""
    if first is None or now is None:
        return False
    before = {t.tid: t for t in first.threads}
    span = max(now.at - first.at, 1e-9)
    for t in now.threads:
        b = before.get(t.tid)
        if b is None:
            continue
        if cpu_between(b, t)[0] >= LIVELOCK_CPU_SHARE * span:
            return True
        if None not in (b.run_ns, b.queued_ns, t.run_ns, t.queued_ns):
            runnable = ((t.run_ns or 0) + (t.queued_ns or 0) - (b.run_ns or 0) - (b.queued_ns or 0)) / 1e9
            if runnable >= RUNNABLE_SHARE * span:
                return True
    return False


def look(
    pids: list[int], window: float = LOOK_WINDOW_S, *, progress: Collection[int] = ()
) -> dict[int, Looked]:
    """Look at every pid over `window` seconds (in parallel); processes that exit are GONE.
    Each is judged from its main thread; the pids in `progress` have a progress signal (``run``'s
    quiet worker, beside its children, which have none)."""
    if not pids:
        return {}
    t0 = time.monotonic()
    series: dict[int, list[ProcSample]] = {}
    for pid in pids:
        start = procfs.sample(pid)
        series[pid] = [start] if start is not None else []
    live = [p for p in pids if series[p]]
    with ThreadPoolExecutor(max_workers=max(1, len(live)), thread_name_prefix="gvlstress-look") as pool:
        first = dict(zip(live, pool.map(capture.take, live), strict=True))
        cost = max((time.monotonic() - t0), 0.05)
        later: dict[int, list[capture.Stacks]] = {p: [] for p in live}
        end = t0 + window
        while time.monotonic() + EVERY_S + cost < end:
            time.sleep(EVERY_S)  # the sampling interval of the window itself
            alive = []
            for pid in pids:
                if series[pid] and (now := procfs.sample(pid)) is not None:
                    series[pid].append(now)
                    alive.append(pid)
            alive = [p for p in alive if p in later]
            for pid, st in zip(
                alive, pool.map(lambda p: capture.take(p, native_view=False), alive), strict=True
            ):
                later[pid].append(st)
        time.sleep(max(0.0, end - cost - time.monotonic()))  # the rest of the window
        hot = [p for p in live if _burning(series[p][0], procfs.sample(p))]
        for pid, st in zip(hot, pool.map(capture.take, hot), strict=True):
            later[pid].append(st)
    out: dict[int, Looked] = {}
    for pid in pids:
        last = procfs.sample(pid)
        s = series[pid]
        if last is not None and s:
            s.append(last)
        a, b = (s[0], s[-1]) if len(s) > 1 else (s[0] if s else None, None)
        f = judge(a, b, progress_tid=pid, progress=pid in progress)
        if len(s) > 2:
            f = replace(f, samples=tuple(s))
        cap = None
        if pid in first and f.kind is not ProbeKind.GONE:
            cap = capture.assemble(f, first[pid], tuple(later[pid]))
        taken = [first[pid], *later[pid]] if pid in first else []
        stops = sum(int(st.pyspy.elapsed_s > 0) + int(st.native.elapsed_s > 0) for st in taken)
        out[pid] = Looked(f, cap, tuple(s), stops)
    return out


def zombies_of(pid: int) -> dict[int, int]:
    """Its dead, unreaped children: pid -> wait status."""
    try:
        kids = psutil.Process(pid).children()
    except psutil.Error:
        return {}
    return {c.pid: st for c in kids if (st := procfs.zombie_status(c.pid)) is not None}


def waited_on(threads: Iterable[ThreadSample | ThreadDelta | None]) -> set[str]:
    """The pipes and sockets these threads wait on."""
    out: set[str] = set()
    for t in threads:
        if t is None:
            continue
        if t.fd_target:
            out.add(t.fd_target)
        out.update(target for _, target in t.watched or ())
    return {t for t in out if t.startswith(("pipe:", "socket:"))}


MAX_PEERS = 8
"""Processes outside the tree looked at because they hold the other end of a wait."""


def peers_of(pids: list[int]) -> list[int]:
    """Processes outside `pids` that hold the other end of what their main threads wait on, and
    the parents of forks: a look takes them in, so a wait is judged by what they do."""
    mains = [
        next((t for t in s.threads if t.tid == s.pid), None) if (s := procfs.sample(p)) else None
        for p in pids
    ]
    ends = wiring.wiring(pids, waited_on(mains))
    found = {h.pid for held in ends.holders.values() for h in held}
    found |= {parent for p in pids if (parent := procfs.forked_from(p)) is not None}  # what a fork left
    found -= {*pids, os.getpid()}
    return sorted(p for p in found if procfs.zombie_status(p) is None)[:MAX_PEERS]


def relatives_of(pids: list[int], before: Mapping[int, Mapping[int, int]], tree: bool) -> Relatives:
    """Parents, start times, the zombies seen before the look (`before`) and after it, and (for
    a tree) the pipes each process holds."""
    parents: dict[int, int | None] = {}
    begun: dict[int, float] = {}
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            proc = psutil.Process(pid)
            parents[pid] = proc.ppid()
            begun[pid] = proc.create_time()
    zombies = {
        pid: {c: st for c, st in zombies_of(pid).items() if before.get(pid, {}).get(c) == st} for pid in pids
    }
    return Relatives(
        parents, begun, zombies, {p: procfs.pipe_ends(p) for p in pids} if tree else {}, tree=tree
    )


def look_and_judge(
    pids: list[int],
    window: float,
    *,
    tree: bool = False,
    progress: Collection[int] = (),
) -> tuple[dict[int, Looked], Judged]:
    """Look at `pids` over the window and judge them together: each alone with its stacks, then
    the rules across processes (the pipes and sockets they wait on, their pools, their forks).
    `progress` are the pids with a progress signal (``run``'s workers); processes that exited
    meanwhile are left out of the verdicts."""
    before = {p: zombies_of(p) for p in pids}
    looked = look(pids, window, progress=progress)
    findings = {p: x.finding for p, x in looked.items() if x.finding.kind is not ProbeKind.GONE}
    captures = {p: c for p in findings if (c := looked[p].capture) is not None}
    relatives = relatives_of(list(findings), before, tree)
    main = waited_on(t for f in findings.values() for t in f.threads if t.tid == f.progress_tid)
    pipes = {t for t in waited_on(t for f in findings.values() for t in f.threads) if t.startswith("pipe:")}
    ends = wiring.wiring(list(findings), main | pipes)
    return looked, judge_look(findings, captures, relatives, ends, progress=frozenset(progress))
