"""Process trees (``inspect --tree``): a parent's wait linked to what its children do."""

from __future__ import annotations

import signal
from collections.abc import Mapping
from dataclasses import replace

from gvlstress.judge import names, vocab
from gvlstress.judge.threads import WRITES
from gvlstress.model import Capture, ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.evidence import (
    ChildDeadlocked,
    ChildPipeFull,
    DeadUnreaped,
    Fact,
    MainAwaitsPool,
    ManagerInFrame,
    NoReaderReads,
    ParentAwaitsExit,
    PipeCycleAll,
    PipeStep,
    ResultLockDead,
    WorkerAwaitsSend,
    WriteEndsOpen,
    WritersDeadlocked,
)


def link_tree(
    findings: Mapping[int, ProbeFinding],
    parents: Mapping[int, int | None],
    pipes: Mapping[int, Mapping[str, str]],
) -> dict[int, tuple[ProbeFinding, names.Match | None]]:
    """Link a parent's wait for a child to what the child does.

    A parent waiting in wait4() for a child (in its main thread, or in a child-watcher thread
    while its event loop awaits the exit) whose thread is blocked writing to a pipe that only the
    waiting parent (or the child itself) holds for reading, and that no thread of the parent reads
    or polls, is a cycle across processes: the parent waits for the child's exit, the child for
    the parent to read (the multiprocessing join-before-get; a subprocess awaited before its
    output is read). Both are then deadlocked; any other wait is annotated, not changed.
    """
    out: dict[int, tuple[ProbeFinding, names.Match | None]] = {pid: (f, None) for pid, f in findings.items()}
    for pid, f in findings.items():
        p = _child_waiter(f)
        if p is None or p.wait is None:
            continue
        kids = [c for c, parent in parents.items() if parent == pid and c in findings]
        if p.wait.child is not None and p.wait.child > 0:
            kids = [c for c in kids if c == p.wait.child]
        for c in kids:
            child = findings[c]
            writer = next(
                (
                    t
                    for t in child.threads
                    if t.wait
                    and t.wait.kind is WaitKind.IO
                    and t.wait.syscall in WRITES
                    and t.wait.link.is_pipe
                ),
                None,
            )
            line = f"process {pid} waits in {p.wait.detail}; child {c} is {child.kind.value}: {child.reason}"
            if writer is None or writer.wait is None:
                out[pid] = (replace(out[pid][0], chain=(*out[pid][0].chain, line)), out[pid][1])
                continue
            pipe = writer.wait.fd_target or ""
            readers = [q for q, held in pipes.items() if "r" in held.get(pipe, "")]
            if not readers or not set(readers) <= {pid, c} or _drains(f, pipe):
                out[pid] = (replace(out[pid][0], chain=(*out[pid][0].chain, line)), out[pid][1])
                continue
            evidence = (
                ParentAwaitsExit(pid, p.wait.detail, c),
                ChildPipeFull(c, writer.tid, writer.wait.detail),
                NoReaderReads(tuple(sorted(readers)), pipe),
            )
            named = names.Match(names.JOIN_BEFORE_DRAIN, names.HINTS[names.JOIN_BEFORE_DRAIN], evidence)
            reason = (
                f"cycle across processes: {pid} waits for {c} to exit, {c} waits for {pid} to read {pipe}"
            )
            for q in (pid, c):
                fq = out[q][0]
                out[q] = (
                    replace(
                        fq, kind=ProbeKind.DEADLOCK, reason=reason
                    ),  # the evidence is the pattern's, shown once
                    named,
                )
    return out


def _child_waiter(f: ProbeFinding) -> ThreadDelta | None:
    """The thread of `f` that waits for a child to exit: its progress thread, or another (an
    event loop's child watcher thread in waitpid() while the loop awaits the child's exit)."""
    p = f.progress_thread()
    if p is not None and p.wait is not None and p.wait.kind is WaitKind.CHILD:
        return p
    waiting = [t for t in f.threads if t.parked and t.wait is not None and t.wait.kind is WaitKind.CHILD]
    return waiting[0] if len(waiting) == 1 and (p is None or p.parked) else None


def _drains(f: ProbeFinding, pipe: str) -> bool:
    """A thread of `f` reads `pipe`, or watches it in a poll: it will drain what the child writes."""
    return any(
        (t.wait is not None and t.wait.fd_target == pipe)
        or any(target == pipe for _, target in t.watched or ())
        for t in f.threads
    )


def wedged_launcher(
    f: ProbeFinding, capture: Capture | None, zombies: Mapping[int, int]
) -> tuple[ProbeFinding, names.Match | None]:
    """A launcher whose ProcessPoolExecutor is wedged by a worker that died mid-result.

    The shape: the main thread waits for the pool's results; the
    executor's manager thread is blocked in a read() of the result pipe (in a frame, not in its
    poll between frames); and a child is dead and unreaped (`zombies`, seen before and after the
    sampling window). A healthy executor reaps a dead worker within milliseconds from that poll,
    so all three together say the manager reads a frame its dead writer will never finish.
    """
    if capture is None or not zombies:
        return f, None
    views = {t.tid: t for t in capture.threads}
    main = views.get(f.progress_tid if f.progress_tid is not None else f.pid)
    if main is None or not vocab.waits_for_pool_results(main):
        return f, None
    reader = next(
        (
            t
            for t in f.threads
            if t.wait is not None
            and t.wait.kind is WaitKind.IO
            and t.wait.syscall in ("read", "readv")
            and t.wait.link.is_pipe
            and (v := views.get(t.tid)) is not None
            and vocab.python_at(v, "concurrent/futures/process.py", "wait_result_broken_or_wakeup", depth=12)
        ),
        None,
    )
    if reader is None or reader.wait is None:
        return f, None
    dead = died(zombies)
    evidence = (
        MainAwaitsPool(),
        ManagerInFrame(reader.tid, reader.wait.detail),
        DeadUnreaped(dead),
        WriteEndsOpen(),
    )
    named = names.Match(names.EXECUTOR_WEDGED, names.HINTS[names.EXECUTOR_WEDGED], evidence)
    reason = f"executor wedged: manager thread {reader.tid} reads a result frame that dead worker(s) {dead} never finished"
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), named


def blocked_behind_wedge(
    f: ProbeFinding, capture: Capture | None, launcher: int, dead: str
) -> tuple[ProbeFinding, names.Match | None]:
    """A worker of a wedged executor that finished its task and waits to send the result: its
    main thread is in _sendback_result, on the result queue's lock the dead worker held."""
    if capture is None:
        return f, None
    main = capture.thread(f.pid)
    if main is None or not vocab.python_at(
        main, "concurrent/futures/process.py", "_sendback_result", depth=8
    ):
        return f, None
    evidence = (WorkerAwaitsSend(launcher), ResultLockDead(dead))
    named = names.Match(names.EXECUTOR_WEDGED, names.HINTS[names.EXECUTOR_WEDGED], evidence)
    reason = f"blocked behind the wedged executor of process {launcher}: its result lock died with {dead}"
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), named


def died(zombies: Mapping[int, int]) -> str:
    """Dead workers in words: '812 (SIGKILL), 813 (exit code 3)'."""
    return ", ".join(f"{pid} ({_died(status)})" for pid, status in sorted(zombies.items()))


def _died(status: int) -> str:
    """A wait status in words: 'SIGKILL' or 'exit code 3'."""
    if status & 0x7F:
        try:
            return signal.Signals(status & 0x7F).name
        except ValueError:
            return f"signal {status & 0x7F}"
    return f"exit code {status >> 8}"


def pipe_waited(f: ProbeFinding) -> str | None:
    """The pipe the progress thread is blocked reading ('pipe:[inode]'), if that is its wait."""
    p = f.progress_thread()
    if (
        p is None
        or p.wait is None
        or p.wait.kind is not WaitKind.IO
        or p.wait.syscall not in ("read", "readv")
    ):
        return None
    target = p.wait.fd_target or ""
    return target if p.wait.link.is_pipe else None


def child_waited(f: ProbeFinding) -> int | None:
    """The child the progress thread waits for in wait4()/waitid(), when it names one."""
    p = f.progress_thread()
    if p is None or p.wait is None or p.wait.kind is not WaitKind.CHILD or not p.wait.child:
        return None
    return p.wait.child if p.wait.child > 0 else None


def behind_child(
    f: ProbeFinding, children: Mapping[int, ProbeFinding], pipes: Mapping[int, Mapping[str, str]]
) -> tuple[int, ChildDeadlocked | WritersDeadlocked] | None:
    """A process blocked reading a pipe that only its deadlocked children write (a loader child,
    a DataLoader's worker), or waiting in wait4() for a deadlocked child (a fork that inherited a
    held lock): its hang is the child's. (The child, the fact of how this process waits for it); None unless
    every process it waits on is a deadlocked child."""
    waited = child_waited(f)
    if waited is not None:
        kid = children.get(waited)
        if kid is None or kid.kind is not ProbeKind.DEADLOCK:
            return None
        return waited, ChildDeadlocked(f.pid, waited)
    pipe = pipe_waited(f)
    if pipe is None:
        return None
    writers = [c for c, held in pipes.items() if "w" in held.get(pipe, "") and c != f.pid]
    if not writers or any(c not in children or children[c].kind is not ProbeKind.DEADLOCK for c in writers):
        return None
    return writers[0], WritersDeadlocked(f.pid, pipe, tuple(writers))


def pipe_graph(
    findings: Mapping[int, ProbeFinding], pipes: Mapping[int, Mapping[str, str]]
) -> dict[int, tuple[str, tuple[int, ...]]]:
    """Who each process waits for through a pipe: pid -> (how its progress thread waits, every
    other process in the tree that could end that wait: the pipe's writers for a read, its
    readers for a write into a full pipe)."""
    out = {}
    for pid, f in findings.items():
        pipe = pipe_waited(f)
        if pipe is not None:
            writers = tuple(sorted(q for q, held in pipes.items() if q != pid and "w" in held.get(pipe, "")))
            out[pid] = (f"read() on {pipe}, written only by", writers)
            continue
        full = pipe_written(f)
        if full is not None:
            readers = tuple(sorted(q for q, held in pipes.items() if q != pid and "r" in held.get(full, "")))
            out[pid] = (f"write() on {full} (full), read only by", readers)
    return out


def pipe_written(f: ProbeFinding) -> str | None:
    """The pipe the progress thread is blocked writing ('pipe:[inode]'): it is full."""
    p = f.progress_thread()
    if p is None or p.wait is None or p.wait.kind is not WaitKind.IO or p.wait.syscall not in WRITES:
        return None
    target = p.wait.fd_target or ""
    return target if p.wait.link.is_pipe else None


def link_pipes(
    findings: Mapping[int, ProbeFinding], pipes: Mapping[int, Mapping[str, str]]
) -> dict[int, tuple[ProbeFinding, names.Match | None]]:
    """Waits on pipes linked across a process tree: a cycle of processes each blocked reading a
    pipe that only the next one writes is a deadlock across processes (named, every member);
    a read whose every writer is stopped (SIGSTOP, a tracer) says so. Others are unchanged."""
    graph = pipe_graph(findings, pipes)
    out: dict[int, tuple[ProbeFinding, names.Match | None]] = {}
    for start in graph:
        cycle, pid = [start], start
        while True:
            _, writers = graph[pid]
            if len(writers) != 1 or writers[0] not in graph:
                break
            pid = writers[0]
            if pid == start:
                break
            if pid in cycle:
                cycle = []
                break
            cycle.append(pid)
        if pid != start or len(cycle) < 2 or start != min(cycle):
            continue
        evidence: tuple[Fact, ...] = (
            *(PipeStep(a, graph[a][0], graph[a][1][0]) for a in cycle),
            PipeCycleAll(len(cycle)),
        )
        named = names.Match(names.PIPE_CYCLE, names.HINTS[names.PIPE_CYCLE], evidence)
        reason = "cycle of pipe waits across processes " + " -> ".join(map(str, [*cycle, start]))
        for q in cycle:
            out[q] = (replace(findings[q], kind=ProbeKind.DEADLOCK, reason=reason), named)
    for pid, (how, others) in graph.items():
        if (
            pid in out
            or not others
            or not all(q in findings and findings[q].kind is ProbeKind.STOPPED for q in others)
        ):
            continue
        f = findings[pid]
        line = (
            f"its {how} process(es) {', '.join(map(str, others))}, stopped (SIGSTOP or a tracer): "
            "`kill -CONT` resumes them"
        )
        out[pid] = (
            replace(f, kind=ProbeKind.STALLED, reason=f"{f.reason}; {line}", chain=(*f.chain, line)),
            None,
        )
    return out
