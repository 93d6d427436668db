"""Every rule over one look at a set of processes (pure): each process alone, then across them.

`run` at a stall, `inspect` (with or without ``--tree``), ``inspect --core`` and ``watch`` hand the
judge one value, a `model.look.Look`, and get one `Judgement` per process back: this module is the
only place a verdict and its name are decided. Each process's /proc finding is decided with its
stacks; then the rules that need other processes: a parent waiting for a child, pipes read in a
cycle, a wedged executor, a pool's accounting, a forked child's missing threads, a spin, a wait on
a pipe or socket judged by whoever holds its other end; and last, a process blocked behind a hung
child or hung pool workers takes their name. A deadlock no rule names is named from its own
stacks (or by its end: a wait nothing left can end), here, so no caller names one by itself.

What one snapshot cannot settle, so when to spend a window, is a judge's rule too, written once
(`judge.settle`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from gvlstress.judge import loops, names, patterns, queues, words
from gvlstress.judge.case import Case, Others, Rule
from gvlstress.judge.cycles import find_cycles
from gvlstress.judge.ends import END_OF, wait_chains
from gvlstress.judge.finalize import exit_finalizer_wait
from gvlstress.judge.forks import judge_forks
from gvlstress.judge.jobstops import stopped_child
from gvlstress.judge.loops import judge_loop
from gvlstress.judge.mutexes import judge_mutex
from gvlstress.judge.names import Match
from gvlstress.judge.peers import judge_peer
from gvlstress.judge.pools import behind_workers, judge_pool
from gvlstress.judge.relock import judge_relock
from gvlstress.judge.semcycle import semaphore_cycle
from gvlstress.judge.settle import GENERIC
from gvlstress.judge.spins import judge_spins
from gvlstress.judge.tree import (
    behind_child,
    blocked_behind_wedge,
    died,
    link_pipes,
    link_tree,
    wedged_launcher,
)
from gvlstress.judge.verdict import INSPECT_VERDICT, decide
from gvlstress.model import Capture, ProbeFinding, ProbeKind, Verdict
from gvlstress.model.evidence import OnlySelfCanEnd, QuietOverHang
from gvlstress.model.look import Look
from gvlstress.model.waitfor import End, WaitFor
from gvlstress.model.wiring import Relatives

LOCALS_WANTED = {**queues.LOCALS, **loops.LOCALS}
"""The Python locals a rule reads ((file suffix, function) -> names): the look pipeline takes
them, once, from processes whose stacks show such a frame."""


@dataclass(frozen=True)
class Judgement:
    """One process's verdict over a look: its finding (kind and reason), the pattern that names
    it (always set for a deadlock; for a spin only when a rule named what it waits for), and the
    process whose hang this one's is, when it is blocked behind another (its stacks show why)."""

    finding: ProbeFinding
    named: Match | None = None
    behind: int | None = None
    waitfor: WaitFor | None = None
    """Its wait-for chain to its end (`judge.ends`): set on what `judge_look` returns."""

    @property
    def hung(self) -> bool:
        """A hang the judge can stand behind: a deadlock, or a spin whose cause a rule named."""
        return self.finding.kind is ProbeKind.DEADLOCK or (
            self.finding.kind is ProbeKind.LIVELOCK and self.named is not None
        )

    @property
    def verdict(self) -> Verdict:
        """What a report of a look calls it (``inspect``, ``watch``): a spin no rule named is
        ``busy`` (long pure computation looks the same), an outside wait ``idle``."""
        if self.finding.kind is ProbeKind.LIVELOCK and self.named is None:
            return Verdict.BUSY
        return INSPECT_VERDICT[self.finding.kind]


Judged = dict[int, Judgement]


RULES: list[Rule] = [
    judge_mutex,
    exit_finalizer_wait,
    judge_spins,
    judge_forks,
    queues.dead_holder,
    queues.dead_sem_holder,
    queues.orphaned_semaphore,
    semaphore_cycle,
    judge_loop,
    judge_peer,
    judge_relock,
    stopped_child,
]
"""The rules tried, in order, on a process nothing named yet (after the pool's accounting). A new
rule is added here once, and ``run``, ``inspect``, ``inspect --tree`` and ``watch`` all apply it."""


def judge_look(look: Look) -> Judged:
    """The verdict of every process of a look (origins and processes that exited left out).

    One judgement per process: the rules that look at another process (a launcher behind its
    workers, a parent behind its child, a wait judged by its peer) read that process's *final*
    judgement. The rules are applied in passes, each reading the judgements the pass before
    ended with, until a pass changes no verdict (`stale` is empty): a rule never stands on a
    finding a later rule changed (a worker's "no progress but CPU burnt" that ends as ``busy``).
    A judgement that still changes after as many passes as there are processes is one the look
    cannot settle, and stands as the milder of its last two (a false alarm costs more than a late
    report)."""
    captures = look.captures()
    base = _base(look, captures)
    judged = _judge_once(look, base, captures, None)
    for _ in range(len(base) + 1):
        again = _judge_once(look, base, captures, judged)
        if not stale(judged, again):
            return _chained(again, look)
        judged, before = again, judged
    return _chained(
        {p: before[p] if j.hung and p in before and not before[p].hung else j for p, j in judged.items()},
        look,
    )


def _chained(judged: Judged, look: Look) -> Judged:
    """Each final judgement with its wait-for chain followed to its end."""
    chains = wait_chains(judged, look.wiring, look.relatives)
    return {p: replace(j, waitfor=chains.get(p)) for p, j in judged.items()}


def unsettled(look: Look, judged: Judged) -> set[int]:
    """The processes whose verdict one more pass over `judged` would change: empty for what
    `judge_look` returns (the guard a test runs over every table look)."""
    captures = look.captures()
    return stale(judged, _judge_once(look, _base(look, captures), captures, judged))


def _base(look: Look, captures: Mapping[int, Capture]) -> dict[int, ProbeFinding]:
    """Each process decided alone, with its own stacks: what every pass starts from."""
    return {p: decide(f, captures.get(p), progress=p in look.progress) for p, f in look.findings().items()}


def stale(judged: Judged, again: Judged) -> set[int]:
    """The processes whose verdict a pass over `judged` changed: their kind, name, culprit or
    whether they hang (the words may quote another process's reason and are not compared)."""
    return {p for p, j in again.items() if p not in judged or _verdict_of(judged[p]) != _verdict_of(j)}


def _verdict_of(j: Judgement) -> tuple[object, ...]:
    return (j.finding.kind, j.named.pattern if j.named else None, j.behind, j.hung)


def final_view(j: Judgement) -> ProbeFinding:
    """How another process's rule sees this judgement: its finding with the kind of its final
    verdict (a burn no rule named is ``busy``: work, not a hang)."""
    if j.finding.kind is ProbeKind.LIVELOCK and j.named is None:
        return replace(j.finding, kind=ProbeKind.BUSY)
    return j.finding


def _judge_once(
    look: Look, base: Mapping[int, ProbeFinding], captures: Mapping[int, Capture], prior: Judged | None
) -> Judged:
    """One pass of every rule over the look. `prior`: the judgements of the pass before, which
    rules about another process read (None on the first pass: they read what this pass has
    judged so far, each seen by its final kind)."""
    relatives, wiring = look.relatives, look.wiring
    linked = link_tree(base, relatives.parents, relatives.pipes)
    piped = link_pipes({p: f for p, (f, m) in linked.items() if m is None}, relatives.pipes)
    linked.update(piped)
    queues.mark_dropped(linked, captures, wiring)
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
    findings_now = {p: f for p, (f, _) in linked.items()}
    if prior is None:
        others = Others(
            {p: final_view(Judgement(f, m)) for p, (f, m) in linked.items()},
            {p: _named(f, m, captures.get(p)) for p, (f, m) in linked.items()},
            captures,
        )
    else:
        others = Others(
            {p: final_view(j) for p, j in prior.items()}, {p: j.named for p, j in prior.items()}, captures
        )
    for pid, (f, named) in list(linked.items()):
        if (
            f.kind in (ProbeKind.GONE, ProbeKind.STOPPED)
            or (named is not None and named.pattern not in GENERIC)
            or pid in piped  # its pipe's writers were judged already (stopped, or a cycle)
        ):
            continue
        cap = captures.get(pid)
        pool = judge_pool(f, cap, relatives, captures, findings_now, wiring)
        if pool is not None:  # what the pool accounts for says more than a generic Python shape
            linked[pid] = pool
            continue
        origin = captures.get(cap.forked_from) if cap is not None and cap.forked_from else None
        if f.kind is ProbeKind.DEADLOCK:
            # a closed wait set its own stacks name only generically (a forked child's one
            # thread on a library's condvar): the library's threads left in the parent say more
            own = patterns.match(f, cap) if named is None else named
            if own is None or own.pattern in GENERIC:
                forked = judge_forks(Case(f, cap, origin, wiring))
                if forked is not None:
                    linked[pid] = forked
            continue
        if named is not None:
            continue
        case = Case(f, cap, origin, wiring, others, relatives)
        for rule in RULES:
            found = rule(case)
            if found is not None:
                linked[pid] = found
                break
    linked.update(_own_stacks_first(find_cycles(linked, wiring, relatives), captures))
    seen = None if prior is None else {p: (j.finding, j.named) for p, j in prior.items()}
    behind = _behind(linked, captures, relatives, seen)
    behind |= _quiet_over_a_hang(linked, captures, relatives, look.progress, behind)
    return {
        pid: Judgement(f, _named(f, named, captures.get(behind.get(pid, pid))), behind.get(pid))
        for pid, (f, named) in linked.items()
    }


def _own_stacks_first(
    found: dict[int, tuple[ProbeFinding, Match]], captures: Mapping[int, Capture]
) -> dict[int, tuple[ProbeFinding, Match]]:
    """A process found waiting on a descriptor only it holds whose own stacks show a thread waiting
    for itself (for a function further down its own stack, for its own loop): that thread is
    where the chain ends, and the descriptor's waiter waits on it (a client thread reading a
    response its own server's handler never finishes, while the handler waits for the server
    loop it runs in). Judged a process-level self-wait, and from its stacks only once a rule
    across processes had found its wait closed, so it is named here."""
    out = dict(found)
    for pid, (f, m) in found.items():
        if m.pattern != names.SELF_FD:
            continue
        own = patterns.match(f, captures.get(pid))
        if (
            own is None
            or own.pattern == names.SELF_FD
            or (own.end or END_OF.get(own.pattern)) is not End.SELF
        ):
            continue
        waiting = {getattr(x, "tid", None) for x in own.facts}
        fds = tuple(x for x in m.facts if isinstance(x, OnlySelfCanEnd) and x.tid not in waiting)
        named = Match(own.pattern, own.hint, (*own.facts, *fds), end=End.SELF)
        out[pid] = (replace(f, reason="waits for itself", chain=words.evidence(named.facts)), named)
    return out


def _behind(
    linked: dict[int, tuple[ProbeFinding, Match | None]],
    captures: Mapping[int, Capture],
    relatives: Relatives,
    prior: Mapping[int, tuple[ProbeFinding, Match | None]] | None = None,
) -> dict[int, int]:
    """A process blocked behind hung processes of its own takes their verdict and name: a
    launcher behind its pool's hung workers, a parent reading a pipe only its deadlocked child
    writes or waiting for it in wait4(). Repeated so a grandchild's hang reaches the root.
    Returns who each such process is behind (the culprit at the end of the line).

    Each other process is read by its final judgement: `prior`'s (the pass before), else what
    this pass has judged so far; a burn no rule named reads as ``busy``, never as a hang."""
    culprit: dict[int, int] = {}
    for _ in range(len(linked)):
        changed = False
        seen = prior if prior is not None else linked
        final = {p: (final_view(Judgement(f, m)), m) for p, (f, m) in seen.items()}
        for pid, (f, named) in list(linked.items()):
            kids = {c: final[c][0] for c, parent in relatives.parents.items() if parent == pid and c in final}
            if named is not None or f.kind in (ProbeKind.DEADLOCK, ProbeKind.LIVELOCK):
                # judged already (a pipe's deadlocked writer, by the peer rule): still, whose
                # hang it is, for the stacks that show it
                told = behind_child(f, kids, relatives.pipes) if f.kind is ProbeKind.DEADLOCK else None
                if told is not None and culprit.get(pid) != (c := culprit.get(told[0], told[0])):
                    culprit[pid] = c
                    changed = True
                continue
            pooled = behind_workers(f, captures.get(pid), relatives, captures, final)
            if pooled is not None:
                linked[pid] = pooled[:2]
                culprit[pid] = culprit.get(pooled[2], pooled[2])
                changed = True
                continue
            told = behind_child(f, kids, relatives.pipes)
            if told is None:
                continue
            c, waits = told
            line = words.word(waits)
            kid, kid_named = final[c]
            kid_named = (
                kid_named or patterns.match(kid, captures.get(c)) or patterns.closed_wait(captures.get(c))
            )
            reason = f"blocked behind its child {c}, which is deadlocked: {kid.reason}"
            linked[pid] = (
                replace(f, kind=ProbeKind.DEADLOCK, reason=reason, chain=(*f.chain, line, *kid.chain)),
                Match(kid_named.pattern, kid_named.hint, (waits, *kid_named.facts)),
            )
            culprit[pid] = culprit.get(c, c)
            changed = True
        if not changed:
            break
    return culprit


def _quiet_over_a_hang(
    linked: dict[int, tuple[ProbeFinding, Match | None]],
    captures: Mapping[int, Capture],
    relatives: Relatives,
    progress: frozenset[int],
    behind: Mapping[int, int],
) -> dict[int, int]:
    """A process whose progress signal went quiet (``run``'s worker, ``watch``'s job) while it
    waits on something outside it or burns CPU no rule explains, with a hung process in its tree
    (a deadlock, or a spin a rule named): the stall is that process's hang, named after it. Without a progress
    signal (``inspect``) a quiet parent may be a service between jobs; there each line stands."""
    out: dict[int, int] = {}
    hung = {p for p, (f, m) in linked.items() if Judgement(f, m).hung}
    for pid in progress:
        if pid not in linked or pid in hung or not relatives.tree:
            continue
        f, named = linked[pid]
        # a burn no rule named (an OpenMP team's active wait, compute) explains no stall either
        unnamed_burn = f.kind is ProbeKind.LIVELOCK and named is None
        if f.kind not in (ProbeKind.WAITING, ProbeKind.STALLED, ProbeKind.IDLE) and not unnamed_burn:
            continue
        below = [c for c in relatives.descendants(pid) if c in hung]
        if not below:
            continue
        c = below[0]
        kid, kid_named = linked[c]
        quiet = QuietOverHang(pid, c, kid.kind.value, kid.reason)
        line = words.word(quiet)
        named = _named(kid, kid_named, captures.get(c)) or patterns.closed_wait(captures.get(c))
        linked[pid] = (
            replace(f, kind=kid.kind, reason=line, chain=(*f.chain, f.reason, line)),
            Match(named.pattern, named.hint, (quiet, *named.facts)),
        )
        out[pid] = behind.get(c, c)
    return out


def _named(f: ProbeFinding, named: Match | None, cap: Capture | None) -> Match | None:
    """A deadlock always has a name: a rule's, else its own stacks' shape, else by its end (a closed wait)."""
    if named is not None or f.kind is not ProbeKind.DEADLOCK:
        return named
    return patterns.match(f, cap) or patterns.closed_wait(cap)
