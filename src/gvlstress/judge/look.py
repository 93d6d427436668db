"""Every rule over one look at a set of processes (pure): each process alone, then across them.

`inspect` (with or without ``--tree``) and ``run``'s prober (a quiet worker and its descendants)
judge the same way: each process's /proc finding is decided with its stacks, and then the rules
that need other processes: a parent waiting for a child, pipes read in a cycle, a wedged executor,
a wait on a pipe or socket judged by whoever holds its other end.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from gvlstress.judge import patterns
from gvlstress.judge.forks import judge_forks
from gvlstress.judge.names import JOIN_BLOCKED, LOST_WAKEUP, UNRECOGNISED, Match
from gvlstress.judge.peers import judge_peer
from gvlstress.judge.pools import behind_workers, judge_pool
from gvlstress.judge.spins import judge_spins
from gvlstress.judge.tree import blocked_behind_wedge, died, link_pipes, link_tree, wedged_launcher
from gvlstress.judge.verdict import decide
from gvlstress.model import Capture, ProbeFinding, ProbeKind
from gvlstress.model.wiring import Relatives, Wiring

Judged = dict[int, tuple[ProbeFinding, Match | None]]


def judge_look(
    findings: Mapping[int, ProbeFinding],
    captures: Mapping[int, Capture],
    relatives: Relatives,
    wiring: Wiring,
    *,
    progress: Collection[int] = (),
) -> Judged:
    """The verdict of every process of a look, and the pattern that names it where one does.
    `progress` are the processes with a progress signal (``run``'s quiet worker)."""
    decided = {p: decide(f, captures.get(p), progress=p in progress) for p, f in findings.items()}
    linked = link_tree(decided, relatives.parents, relatives.pipes)
    piped = link_pipes({p: f for p, (f, m) in linked.items() if m is None}, relatives.pipes)
    linked.update(piped)
    for pid, zombies in relatives.zombies.items():  # a wedged executor: dead children unreaped
        if pid not in linked or linked[pid][1] is not None or not zombies:
            continue
        f, named = wedged_launcher(linked[pid][0], captures.get(pid), zombies)
        linked[pid] = (f, named)
        for child, parent in relatives.parents.items() if named else ():
            if parent == pid and child in linked:
                linked[child] = blocked_behind_wedge(
                    linked[child][0], captures.get(child), pid, died(zombies)
                )
    others = {p: f for p, (f, _) in linked.items()}
    for pid, (f, named) in list(linked.items()):
        if (
            f.kind in (ProbeKind.GONE, ProbeKind.STOPPED)
            or (named is not None and named.pattern not in GENERIC)
            or pid in piped  # its pipe's writers were judged already (stopped, or a cycle)
        ):
            continue
        cap = captures.get(pid)
        pool = judge_pool(f, cap, relatives, captures, others, wiring)
        if pool is not None:  # what the pool accounts for says more than a generic Python shape
            linked[pid] = pool
            continue
        origin = captures.get(cap.forked_from) if cap is not None and cap.forked_from else None
        if f.kind is ProbeKind.DEADLOCK:
            # a closed wait set its own stacks name only generically (a forked child's one
            # thread on a library's condvar): the library's threads left in the parent say more
            own = patterns.match(f, cap) if named is None else named
            if own is None or own.pattern in GENERIC:
                forked = judge_forks(f, cap, origin, wiring)
                if forked is not None:
                    linked[pid] = forked
            continue
        if named is not None:
            continue
        found = (
            judge_spins(f, cap, origin, wiring)
            or judge_forks(f, cap, origin, wiring)
            or judge_peer(f, cap, wiring, others, relatives)
        )
        if found is not None:
            linked[pid] = found
    for pid, (f, named) in list(linked.items()):  # a launcher behind its pool's hung workers
        if named is None and f.kind not in (ProbeKind.DEADLOCK, ProbeKind.LIVELOCK):
            behind = behind_workers(f, captures.get(pid), relatives, captures, linked)
            if behind is not None:
                linked[pid] = behind
    return linked


GENERIC = frozenset({LOST_WAKEUP, JOIN_BLOCKED, UNRECOGNISED})
"""Shapes named from a thread's wait alone, which a rule across processes may name better."""
