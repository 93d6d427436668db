"""Spawn-safe worker entry point. Stdlib and the target only: no rich, click or psutil here.

A spawned interpreter imports this module to run `main`; keeping it light keeps wave start-up
fast and keeps harness code out of the process under test. The order in `main` matters: thread
knobs are applied *before* the target is imported, because loaders size their pools from the
environment at import or first use.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import operator
import os
import signal
import sys
import threading
import time
from typing import Any, NamedTuple, Protocol

from gvlstress.system.failure import Failure, describe, type_name
from gvlstress.system.heartbeat import Board, Phase
from gvlstress.system.knobs import knob_values

_board: Board | None = None
_barrier: Any = None


class WorkerSession(Protocol):
    """What a target's worker side returns: something that yields batches."""

    def next_batch(self) -> object: ...

    def describe(self) -> dict[str, Any]: ...


class WorkerSpec(NamedTuple):
    """Everything a worker needs; pickled to the worker with its task. (Immutable tuples, not
    dataclasses: every spawned worker imports this module, and `dataclasses` with `inspect`
    costs each one ~8 ms; with 5 workers on 2 cores that is ~20 ms of every wave.)"""

    entry: str
    """'module:function' of the target's worker side, called as fn(options, seed, slot)."""
    options: dict[str, Any]
    env: dict[str, str]
    """Environment to apply before importing the target (e.g. RAYON_NUM_THREADS)."""
    iterations: int
    duration: float | None
    seed: int
    rendezvous_s: float = 30.0
    """How long to wait for every sibling to hold its task before going on regardless."""
    affinity: tuple[int, ...] | None = None
    """CPUs the worker pins itself to before the target is imported (``--squeeze``): every
    thread the target starts later inherits the mask, so the squeeze holds from the first one."""
    result_bytes: int = 0
    """Bytes the task returns with its report (``--result-bytes``)."""
    switch_interval: float | None = None
    """``sys.setswitchinterval`` set before the target is imported (``--switch-interval``)."""


class WorkerReport(NamedTuple):
    """What a worker returns to the supervisor at the end of its share of the wave."""

    slot: int
    pid: int
    iterations: int
    elapsed_s: float
    cpu_s: float
    batch_s_max: float
    threads_max: int
    env_inherited: dict[str, str]
    """Thread knobs as the worker was born with them (raw: the supervisor redacts them)."""
    env_effective: dict[str, str]
    target_info: dict[str, Any]
    pinned: tuple[int, int] | None = None
    """With an affinity: (threads inside it, threads in all) at the end of the worker's share."""
    payload: bytes = b""
    """``--result-bytes`` of it, carried back through the executor's result pipe."""
    switch_interval: float | None = None
    """With ``--switch-interval``: the interval at the end (a target may have set its own)."""


WorkerResult = WorkerReport | Failure
"""What a worker's task returns: its report, or the record of what its target raised."""


def _die_with_parent(parent_pid: int, sig: int = signal.SIGKILL) -> None:
    """Ask Linux to signal this worker when its parent dies (PR_SET_PDEATHSIG).

    The supervisor reaps workers itself; this covers the one case it cannot: the harness being
    SIGKILLed. With a watchdog running the signal is SIGSTOP: the worker freezes with its own
    children still attached, so the watchdog sees the whole tree before it kills it (SIGKILL
    would orphan them first). Checked against a parent that died before the request was made.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, sig, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        return
    if os.getppid() != parent_pid:
        os._exit(1)


def stderr_file(directory: str, pid: int) -> str:
    """Where worker `pid` writes its stderr (the supervisor keeps the tail for the report)."""
    return os.path.join(directory, f"{pid}.stderr")


def _stderr_to(directory: str) -> None:
    """Send fd 2 to a file of our own: what native code prints before it aborts (an LLVM
    error, a Rust panic) lands there too, not only on the console."""
    fd = os.open(stderr_file(directory, os.getpid()), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(fd, 2)
    os.close(fd)


def join_cgroups(procs_files: list[str]) -> None:
    """Enter the wave's cgroups (CPU quota, memory limit) before anything else runs here: every
    thread and child this worker starts is then born inside them. A failure is left for the
    supervisor to find (it checks membership and says what was not applied)."""
    me = str(os.getpid())
    for path in procs_files:
        try:
            with open(path, "w") as fh:
                fh.write(me)
        except OSError:
            continue


def init(
    raw_board: Any,
    parent_pid: int | None = None,
    barrier: Any = None,
    sys_path: list[str] | None = None,
    stderr_dir: str | None = None,
    death_signal: int = signal.SIGKILL,
    cgroups: list[str] | None = None,
) -> None:
    """Pool initializer: join the wave's cgroups, attach the board; leave Ctrl-C to the
    supervisor, which tears down.

    `sys_path` is given when the worker runs another interpreter (``--python``): spawn copied
    the supervisor's sys.path, but the target must come from this interpreter's own packages.
    """
    global _board, _barrier
    if "GVLSTRESS_DELAYS" in os.environ:  # --delays: the layer is for this process, not its children
        kept = [
            p for p in os.environ.get("LD_PRELOAD", "").split(":") if p and not p.endswith("/libgvldelay.so")
        ]
        for key in [k for k in os.environ if k.startswith("GVLSTRESS_DELAY")]:
            del os.environ[key]
        if kept:
            os.environ["LD_PRELOAD"] = ":".join(kept)
        else:
            os.environ.pop("LD_PRELOAD", None)
    if cgroups:
        join_cgroups(cgroups)
    if stderr_dir:
        _stderr_to(stderr_dir)
    if sys_path:
        sys.path[:] = sys_path
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_pid is not None:
        _die_with_parent(parent_pid, death_signal)
    _board = Board.attach(raw_board)
    _barrier = barrier


def _rendezvous(timeout: float) -> None:
    """Wait until every worker of the wave holds its task (bounded; a no-show only delays)."""
    if _barrier is None:
        return
    with contextlib.suppress(threading.BrokenBarrierError):
        _barrier.wait(timeout)


def _os_threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 0


def _pin(cpus: tuple[int, ...]) -> None:
    """Pin this (the main) thread before the target starts any: threads inherit the mask."""
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, cpus)


def _pinned(cpus: tuple[int, ...]) -> tuple[int, int]:
    """(threads whose affinity is within `cpus`, threads in all): the squeeze as it stands."""
    allowed = set(cpus)
    inside = total = 0
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return 0, 0
    for tid in tids:
        try:
            mask = os.sched_getaffinity(int(tid))
        except OSError:
            continue
        total += 1
        inside += mask <= allowed
    return inside, total


def _pool_size(info: dict[str, Any]) -> int | None:
    rayon = info.get("rayon_threads")
    return rayon if isinstance(rayon, int) else None


def load_entry(entry: str) -> Any:
    module, _, attr = entry.partition(":")
    return getattr(importlib.import_module(module), attr)


def warm(spec: WorkerSpec) -> dict[str, Any]:
    """Open the target once, as a worker would, and run its ``warm()`` (else one batch).

    Run in a process of its own before the first wave, so every on-disk cache the target
    fills on first use (numba, torch) is complete before N workers start together.
    """
    os.environ.update(spec.env)
    session = load_entry(spec.entry)(spec.options, spec.seed, 0)
    hook = getattr(session, "warm", None)
    if callable(hook):
        hook()
    else:
        session.next_batch()
    info: dict[str, Any] = session.describe()
    return info


WARM_SNIPPET = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from gvlstress.worker import warm_cli; warm_cli(sys.argv[2])"
)
"""`python -c WARM_SNIPPET SYS_PATH_JSON SPEC_JSON`: the warm-up in the workers' interpreter."""


def warm_cli(spec_json: str) -> None:
    import json

    spec = WorkerSpec(**json.loads(spec_json))
    info = warm(spec)
    sys.stdout.write(json.dumps(info, default=str) + "\n")


def spec_json(spec: WorkerSpec) -> str:
    import json

    return json.dumps(spec._asdict())


def _plain(value: Any, depth: int = 0) -> Any:
    """What a target's ``describe()`` said, as plain data (str, numbers, lists, dicts): the
    report keeps it as JSON, and none of the target's objects cross the result pipe."""
    try:
        if value is None or isinstance(value, bool):
            return None if value is None else bool.__bool__(value)
        if isinstance(value, (int, float)):  # subclasses read by the base type's own method
            return int.__index__(value) if isinstance(value, int) else float.__float__(value)
        if isinstance(value, str):
            return str.__str__(value)[:4096]
        if depth < 8 and isinstance(value, (list, tuple)):
            return [_plain(v, depth + 1) for v in list(value)[:256]]
        if depth < 8 and isinstance(value, dict):
            items = list(dict.items(value))[:256]
            return {_plain(k, 8) if isinstance(k, str) else "?": _plain(v, depth + 1) for k, v in items}
        return operator.index(value)  # numpy's integers
    except BaseException:
        return f"<{type_name(type(value))}>"


def main(slot: int, spec: WorkerSpec) -> WorkerResult:
    """Run one worker's share of a wave, beating the board after every batch. Whatever the
    target raises comes back as a `Failure` record, never as the exception itself."""
    board = _board
    if board is None:
        raise RuntimeError("gvlstress.worker.init was not run in this process")
    pid = os.getpid()
    board.start(slot, pid)
    _rendezvous(spec.rendezvous_s)
    try:
        inherited = knob_values(os.environ)
        os.environ.update(spec.env)
        effective = knob_values(os.environ)
        if spec.affinity:
            _pin(spec.affinity)
        if spec.switch_interval is not None:
            sys.setswitchinterval(spec.switch_interval)
        opener = load_entry(spec.entry)
        board.phase(slot, Phase.IMPORTED)
        session: WorkerSession = opener(spec.options, spec.seed, slot)
        board.phase(slot, Phase.ITERATING)
        started = time.monotonic()
        cpu0 = time.process_time()
        deadline = started + spec.duration if spec.duration else None
        done = 0
        batch_max = 0.0
        board.beat(slot, 0, 0.0, _os_threads())
        while (deadline is None and done < spec.iterations) or (
            deadline is not None and time.monotonic() < deadline
        ):
            t0 = time.monotonic()
            try:
                session.next_batch()
            except StopIteration:  # the target's iterable ended: this worker's share is done
                break
            dt = time.monotonic() - t0
            done += 1
            if done == 1:  # the pool exists now: say how big it is, even if a later batch hangs
                board.phase(slot, Phase.ITERATING, _pool_size(session.describe()))
            batch_max = max(batch_max, dt)
            board.beat(slot, done, dt, _os_threads())  # the board keeps the most threads seen
        said = _plain(session.describe())
        info = {"python": sys.version.split()[0], **(said if isinstance(said, dict) else {"describe": said})}
        board.phase(slot, Phase.DONE, _pool_size(info))
        return WorkerReport(
            slot=slot,
            pid=pid,
            iterations=done,
            elapsed_s=time.monotonic() - started,
            cpu_s=time.process_time() - cpu0,
            batch_s_max=batch_max,
            threads_max=board.read(slot).threads,
            env_inherited=inherited,
            env_effective=effective,
            target_info=info,
            pinned=_pinned(spec.affinity) if spec.affinity else None,
            payload=bytes(spec.result_bytes),
            switch_interval=sys.getswitchinterval() if spec.switch_interval is not None else None,
        )
    except BaseException as exc:  # the target's error is a result: data the supervisor can trust
        board.phase(slot, Phase.FAILED)
        return describe(exc)
