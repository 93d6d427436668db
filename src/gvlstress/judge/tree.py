"""Process trees (``inspect --tree``): a parent's wait linked to what its children do."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from gvlstress.judge import patterns
from gvlstress.model import ProbeFinding, ProbeKind, WaitKind

_WRITES = ("write", "writev", "sendmsg", "sendto", "pwrite64")


def link_tree(
    findings: Mapping[int, ProbeFinding],
    parents: Mapping[int, int | None],
    pipes: Mapping[int, Mapping[str, str]],
) -> dict[int, tuple[ProbeFinding, patterns.Match | None]]:
    """Link a parent's wait for a child to what the child does.

    A parent waiting in wait4() for a child whose thread is blocked writing to a pipe that only
    the waiting parent (or the child itself) holds for reading is a cycle across processes: the
    parent waits for the child's exit, the child for the parent to read (the multiprocessing
    join-before-get). Both are then deadlocked; any other wait is annotated, not changed.
    """
    out: dict[int, tuple[ProbeFinding, patterns.Match | None]] = {
        pid: (f, None) for pid, f in findings.items()
    }
    for pid, f in findings.items():
        p = next((t for t in f.threads if t.tid == f.progress_tid), None)
        if p is None or p.wait is None or p.wait.kind is not WaitKind.CHILD:
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
                    and t.wait.syscall in _WRITES
                    and (t.wait.fd_target or "").startswith("pipe:")
                ),
                None,
            )
            line = f"process {pid} waits in {p.wait.detail} for child {c}, which is {child.kind.value}: {child.reason}"
            if writer is None or writer.wait is None:
                out[pid] = (replace(out[pid][0], chain=(*out[pid][0].chain, line)), out[pid][1])
                continue
            pipe = writer.wait.fd_target or ""
            readers = [q for q, held in pipes.items() if "r" in held.get(pipe, "")]
            if not readers or not set(readers) <= {pid, c}:
                out[pid] = (replace(out[pid][0], chain=(*out[pid][0].chain, line)), out[pid][1])
                continue
            evidence = (
                f"process {pid} waits in {p.wait.detail} for child {c} to exit",
                f"child {c}'s thread {writer.tid} is blocked in {writer.wait.detail}: the pipe is full",
                f"only processes {', '.join(map(str, sorted(readers)))} hold {pipe} open for reading, and none "
                "of them reads it: the parent waits for the child, the child for the parent",
            )
            named = patterns.Match(
                patterns.JOIN_BEFORE_DRAIN, patterns.HINTS[patterns.JOIN_BEFORE_DRAIN], evidence
            )
            reason = (
                f"cycle across processes: {pid} waits for {c} to exit, {c} waits for {pid} to read {pipe}"
            )
            for q in (pid, c):
                fq = out[q][0]
                out[q] = (
                    replace(fq, kind=ProbeKind.DEADLOCK, reason=reason, chain=(*fq.chain, *evidence)),
                    named,
                )
    return out
