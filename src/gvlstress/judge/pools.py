"""Process pools accounted for across a tree (pure): a result that can never arrive.

A launcher waiting for a result of its ``multiprocessing.Pool`` or ``ProcessPoolExecutor`` is
idle while the result can still come: a worker runs a task (computing, sleeping, reading), a
result or a task is in flight (bytes queued in a pipe, a worker writing), the pool's own threads
move work. It can never come when, at every look over the window:

- every worker waits for a task, no worker exists, no byte waits in any pipe between them, and
  the pool's task handler has nothing left to hand out: the task was **lost** (a worker died
  holding it and was replaced, as CPython's Pool does: bpo-22393; an executor stopped replacing
  retired workers: gh-115634);
- or the thread that delivers results is gone (the Pool's result handler died on a result it
  could not unpickle, bpo-35311; the executor's manager thread died): nothing will ever set the
  result the launcher waits for, whatever the other threads do (one may spin).

Frames are matched by file and function, for CPython's ``multiprocessing`` and its forks that
keep the file names (``multiprocess``, pathos).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from gvlstress.judge import patterns, vocab, words
from gvlstress.judge.names import HINTS, LOST_RESULTS, LOST_TASK, RESPAWN_LOOP, RESULTS_SELF_WAIT, Match
from gvlstress.judge.threads import LIVELOCK_CPU_SHARE, waits_forever
from gvlstress.model import Capture, ProbeFinding, ProbeKind, PyThread, ThreadView, WaitKind
from gvlstress.model.evidence import (
    BehindWorkers,
    DeadChildren,
    Fact,
    MainAwaitsResult,
    NoOtherSetsIt,
    NothingDelivered,
    NothingInFlight,
    OnlyDeliverer,
    ReaderWaitsOwnPool,
    ResultThreadDied,
    WorkersChurn,
    WorkersReplaced,
    WorkersWaitTask,
)
from gvlstress.model.waitfor import End
from gvlstress.model.wiring import Relatives, Wiring

_MP = ("multiprocessing/", "multiprocess/")
_FUTURES = "concurrent/futures/"
_RESULT_WAIT_FILES = ("/threading.py", "/pool.py", "concurrent/futures/_base.py")
"""Frames of a wait for a pool's result, skipped to show the caller (the callback)."""


def _frames(py: PyThread | None) -> list[tuple[str, str]]:
    """(file, function) of the Python frames, innermost first."""
    if py is None:
        return []
    return [(f.file or "", f.name.rsplit(".", 1)[-1]) for f in py.frames if f.file and f.file.endswith(".py")]


def _at(py: PyThread | None, files: tuple[str, ...], function: str, depth: int) -> bool:
    return any(fn == function and file.endswith(files) for file, fn in _frames(py)[:depth])


def _in(py: PyThread | None, module: str, function: str, depth: int = 16) -> bool:
    """A frame `function` of `module` ('pool.py' under multiprocessing or a fork of it, or a
    concurrent.futures file) among the innermost `depth`."""
    files = (
        (f"{_FUTURES}{module}",) if module in ("process.py", "_base.py") else tuple(p + module for p in _MP)
    )
    return _at(py, files, function, depth)


def waits_for_result(py: PyThread | None) -> str | None:
    """Which pool the thread waits on for a result ('pool', 'executor'), or None."""
    if _in(py, "pool.py", "wait", 4) or _in(py, "pool.py", "next", 4) or _in(py, "pool.py", "get", 4):
        return "pool"
    if any(_in(py, "_base.py", fn, 4) for fn in ("result", "as_completed", "wait", "_result_or_cancel")):
        return "executor"
    return None


def waits_for_task(py: PyThread | None) -> bool:
    """A pool worker between tasks: inside `worker`/`_process_worker`, in the queue's get."""
    worker = _in(py, "pool.py", "worker", 12) or _in(py, "process.py", "_process_worker", 12)
    return worker and _in(py, "queues.py", "get", 6)


def _result_thread(kind: str, py: PyThread) -> bool:
    """The thread that delivers a pool's results to the waiting launcher."""
    if kind == "pool":
        return _in(py, "pool.py", "_handle_results")
    in_process_py = any(f.endswith("concurrent/futures/process.py") for f, _ in _frames(py))
    # the manager thread: _ExecutorManagerThread.run (3.9+), _queue_management_worker before
    return in_process_py and (
        _in(py, "process.py", "run") or _in(py, "process.py", "_queue_management_worker")
    )


def _process_pool(py: PyThread) -> bool:
    """A thread only a ProcessPoolExecutor's launcher has: its manager thread, or its call
    queue's feeder (a multiprocessing queue); a ThreadPoolExecutor has neither."""
    return any(f.endswith(_FUTURES + "process.py") for f, _ in _frames(py)) or _in(py, "queues.py", "_feed")


def _is_worker(py: PyThread | None) -> bool:
    return _in(py, "pool.py", "worker", 40) or _in(py, "process.py", "_process_worker", 40)


_SPAWN = tuple(p + "spawn.py" for p in _MP)
_MP_PROCESS = tuple(p + "process.py" for p in _MP)


def _starting(py: PyThread | None) -> bool:
    """A process of the pool (spawn or forkserver) that has not reached its worker loop yet:
    inside multiprocessing's preparation (``spawn.py``: unpickling its setup, importing the main
    module again; a forkserver importing it before it forks a worker), not yet in the process's
    ``_bootstrap`` that runs the worker loop. It may take as long as the main module's imports."""
    frames = _frames(py)
    prepares = any(file.endswith(_SPAWN) for file, _ in frames)
    return prepares and not any(fn == "_bootstrap" and file.endswith(_MP_PROCESS) for file, fn in frames)


def _task_handler_idle(kind: str, threads: list[PyThread]) -> bool:
    """The launcher hands out nothing more: the Pool's task handler waits for new work (at the
    top of its loop), the executor's queue feeder waits for items."""
    if kind == "pool":
        handler = [t for t in threads if _in(t, "pool.py", "_handle_tasks")]
        return all(_frames(t)[:1] == [] or _frames(t)[0][1] == "_handle_tasks" for t in handler)
    feeders = [t for t in threads if _in(t, "queues.py", "_feed")]
    return all(_at(t, ("/threading.py",), "wait", 2) for t in feeders) if feeders else True


@dataclass(frozen=True)
class _Look:
    """One process's Python threads at each look of the window (first look, then resamples)."""

    looks: tuple[dict[int, PyThread], ...]

    @classmethod
    def of(cls, capture: Capture | None) -> _Look:
        if capture is None:
            return cls(())
        first = {t.tid: t.python for t in capture.threads if t.python is not None}
        later = tuple({t.tid: t for t in s.python} for s in capture.resamples if s.python)
        return cls((first, *later))

    def main(self, pid: int) -> Iterator[PyThread | None]:
        for look in self.looks:
            yield look.get(pid)


def _queued(wiring: Wiring, pids: list[int]) -> list[str]:
    """Pipes between `pids` (held by two of them or more: a pool's task and result pipes, not a
    terminal's stderr) that hold bytes, each once."""
    held: dict[str, set[int]] = {}
    queued: dict[str, int] = {}
    for pid in pids:
        for f in wiring.files.get(pid, ()):
            if f.link.is_pipe:
                held.setdefault(f.target, set()).add(pid)
                if f.queued:
                    queued[f.target] = f.queued
    return [f"{t} ({n} bytes)" for t, n in queued.items() if len(held[t]) > 1]


def judge_pool(
    f: ProbeFinding,
    capture: Capture | None,
    relatives: Relatives,
    captures: Mapping[int, Capture],
    findings: Mapping[int, ProbeFinding],
    wiring: Wiring,
) -> tuple[ProbeFinding, Match] | None:
    """A launcher whose pool result can never arrive; None when it can, or when this look
    cannot tell (a process without stacks, a look without the workers)."""
    look = _Look.of(capture)
    mains = list(look.main(f.progress_tid or f.pid))
    if not mains or any(m is None for m in mains):
        return None
    kinds = {waits_for_result(m) for m in mains}
    if len(kinds) != 1 or None in kinds:
        return None
    kind = kinds.pop()
    assert kind is not None
    if kind == "executor" and not any(_process_pool(t) for lk in look.looks for t in lk.values()):
        return None  # a Future of a ThreadPoolExecutor (or of anything else): no process pool here
    p = f.progress_thread()
    if p is None or not p.parked or p.wait is None or p.wait.kind is not WaitKind.LOCK:
        return None  # a timed wait, or still running: it may return by itself
    what = "multiprocessing.Pool" if kind == "pool" else "ProcessPoolExecutor"
    line = vocab.python_line(
        vocab.outer_python(ThreadView.of(p.tid, mains[0], comm=p.comm), _RESULT_WAIT_FILES)
    )
    waiting = MainAwaitsResult(what, line)
    readers = [[t for t in lk.values() if _result_thread(kind, t)] for lk in look.looks]
    if all(not r for r in readers):
        reader = "result handler thread (_handle_results)" if kind == "pool" else "manager thread"
        lines: tuple[Fact, ...] = (
            waiting,
            ResultThreadDied(what, reader),
            NoOtherSetsIt((len(f.threads) - 1, f.cpu_s) if f.cpu_s > 0.05 else None),
        )
        reason = f"the {what}'s {reader} has died: the result the main thread waits for can never arrive"
        burning = f.cpu_s >= LIVELOCK_CPU_SHARE * f.window_s
        kind_ = ProbeKind.LIVELOCK if burning else ProbeKind.DEADLOCK
        return replace(f, kind=kind_, reason=reason), Match(LOST_RESULTS, HINTS[LOST_RESULTS], lines)
    stuck = _reader_waits_on_own_pool(f, kind, readers)
    if stuck is not None:
        lines = (waiting, stuck, OnlyDeliverer())
        reason = f"the {what}'s {stuck.reader} waits for a result of its own pool: it waits for itself"
        burning = f.cpu_s >= LIVELOCK_CPU_SHARE * f.window_s
        kind_ = ProbeKind.LIVELOCK if burning else ProbeKind.DEADLOCK
        return replace(f, kind=kind_, reason=reason), Match(
            RESULTS_SELF_WAIT, HINTS[RESULTS_SELF_WAIT], lines
        )
    if any(waits_for_result(t) for r in readers for t in r):
        return None  # the result thread waits inside a callback on something else: nothing is lost yet
    if not relatives.tree:
        return None  # the workers were not looked at: the launcher alone cannot tell
    respawn = respawning(f, look, kind, relatives)
    if respawn is not None:
        return respawn
    kids = [c for c in relatives.descendants(f.pid) if c in findings]
    workers: list[int] = []
    for c in kids:
        child = _Look.of(captures.get(c))
        if not child.looks:
            if findings[c].kind is ProbeKind.GONE:
                continue
            return None  # a child without stacks: it may be a worker inside a task
        cm = list(child.main(c))
        if any(_starting(m) for m in cm):
            return None  # a worker still starting (importing the main module): the tasks wait for it
        if any(_is_worker(m) for m in cm):
            if not all(waits_for_task(m) for m in cm):
                return None  # a worker inside a task (or between): its result may still come
            workers.append(c)
    if not all(_task_handler_idle(kind, list(lk.values())) for lk in look.looks):
        return None
    queued = _queued(wiring, [f.pid, *workers])
    if queued or any(
        t.wait and t.wait.kind is WaitKind.IO and t.wait.syscall in ("write", "writev") for t in f.threads
    ):
        return None  # bytes in flight: a task or a result is on its way
    began = {c: relatives.started[c] for c in workers if c in relatives.started}
    later = sorted((c for c in began if began[c] - min(began.values()) > 0.1), key=began.__getitem__)
    lines_: list[Fact] = [waiting, WorkersWaitTask(tuple(workers)), NothingInFlight()]
    if later:
        lines_.append(WorkersReplaced(tuple(later), began[later[0]] - min(began.values())))
    dead = relatives.zombies.get(f.pid, {})
    if dead:
        lines_.append(DeadChildren(tuple(sorted(dead))))
    reason = (
        f"a task was lost: every worker of its {what} waits for a task while the main thread waits for its result"
        if workers
        else f"a task was lost: its {what} has no worker left while the main thread waits for a result"
    )
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(
        LOST_TASK, HINTS[LOST_TASK], tuple(lines_), end=End.GONE if workers else End.NOBODY
    )


def _reader_waits_on_own_pool(
    f: ProbeFinding, kind: str, readers: list[list[PyThread]]
) -> ReaderWaitsOwnPool | None:
    """The thread that delivers the pool's results waits, at every look and untimed, for a result of
    the same pool (a callback it runs calls pool.apply or future.result()): what it waits for, or
    None. Another thread (the Pool's worker handler) may spin on the results nobody reads."""
    if not readers or any(len(r) != 1 for r in readers) or len({r[0].tid for r in readers}) != 1:
        return None
    if any(waits_for_result(r[0]) != kind for r in readers):
        return None
    tid = readers[0][0].tid
    t = next((d for d in f.threads if d.tid == tid), None)
    if t is None or not t.parked or t.wait is None or t.wait.kind is not WaitKind.LOCK:
        return None  # a timed wait, or it runs: it may deliver yet
    if kind == "executor" and not all(d.parked and waits_forever(d) for d in f.threads):
        # a Future is anybody's (a thread pool's, an event loop's): only a process where no
        # other thread runs or keeps a timer leaves the manager thread itself to complete it
        return None
    reader = "result handler thread (_handle_results)" if kind == "pool" else "manager thread"
    view = vocab.outer_python(ThreadView.of(tid, readers[0][0], comm=t.comm), _RESULT_WAIT_FILES)
    line = vocab.python_line(view)
    what = "multiprocessing.Pool" if kind == "pool" else "ProcessPoolExecutor"
    return ReaderWaitsOwnPool(what, reader, tid, line)


def respawning(
    f: ProbeFinding, look: _Look, kind: str, relatives: Relatives
) -> tuple[ProbeFinding, Match] | None:
    """A pool that replaces workers that die before they deliver anything: over the window its
    children come and go, and the thread that delivers results never woke (no result arrived).
    A pool recycling healthy workers (``maxtasksperchild``) delivers results as it goes."""
    churn = relatives.churn.get(f.pid)
    if churn is None or len(churn.born) < 2 or len(churn.gone) < 2:
        return None
    readers = {t.tid for lk in look.looks for t in lk.values() if _result_thread(kind, t)}
    # bytes the reader read (a stack tool's stop wakes a thread too, but moves nothing)
    woke = [t for t in f.threads if t.tid in readers and (t.moved is None or t.moved > 0)]
    if not readers or woke:
        return None  # results arrive (or no result reader to ask): a pool at work
    codes = sorted({st >> 8 for st in churn.statuses if not st & 0x7F})
    what = "multiprocessing.Pool" if kind == "pool" else "ProcessPoolExecutor"
    lines = (
        MainAwaitsResult(what, None),
        WorkersChurn(churn.seconds, tuple(churn.born), len(churn.gone), tuple(codes)),
        NothingDelivered(),
    )
    reason = f"its {what} keeps replacing workers that die before they take a task; no result can come"
    return replace(f, kind=ProbeKind.LIVELOCK, reason=reason), Match(RESPAWN_LOOP, HINTS[RESPAWN_LOOP], lines)


def behind_workers(
    f: ProbeFinding,
    capture: Capture | None,
    relatives: Relatives,
    captures: Mapping[int, Capture],
    judged: Mapping[int, tuple[ProbeFinding, Match | None]],
) -> tuple[ProbeFinding, Match | None, int] | None:
    """A launcher waiting for its pool's results while the workers that hold its tasks are hung
    themselves (deadlocked or spinning: a library forked into them after its pool started), and
    the rest wait for tasks: the launcher's hang is theirs, told from its side (and the first
    hung worker, whose stacks show it)."""
    if not relatives.tree:
        return None
    look = _Look.of(capture)
    mains = list(look.main(f.progress_tid or f.pid))
    if not mains or any(waits_for_result(m) is None for m in mains):
        return None
    hung: list[int] = []
    for c in relatives.descendants(f.pid):
        if c not in judged:
            continue
        cm = list(_Look.of(captures.get(c)).main(c))
        if not any(_is_worker(m) for m in cm):
            continue
        kid, _ = judged[c]
        if kid.kind in (ProbeKind.DEADLOCK, ProbeKind.LIVELOCK):
            hung.append(c)
        elif not all(waits_for_task(m) for m in cm):
            return None  # a worker still at work: its result may come
    if not hung:
        return None
    first, named = judged[hung[0]]
    named = named or patterns.match(first, captures.get(hung[0]))  # its own stacks' shape
    behind = BehindWorkers(tuple(hung), first.kind.value, first.reason)
    line = words.word(behind)
    reason = f"blocked behind its pool's worker(s) {', '.join(map(str, hung))}: {first.reason}"
    match = Match(named.pattern, named.hint, (behind, *named.facts)) if named else None
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason, chain=(*f.chain, line)), match, hung[0]
