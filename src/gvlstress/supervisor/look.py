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

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from gvlstress.judge.threads import LIVELOCK_CPU_SHARE, cpu_between
from gvlstress.judge.verdict import judge
from gvlstress.model import Capture, ProbeFinding, ProbeKind, ProcSample
from gvlstress.probes import capture, procfs

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
    """Some thread used at least LIVELOCK_CPU_SHARE of a CPU since `first`."""
    if first is None or now is None:
        return False
    before = {t.tid: t for t in first.threads}
    span = max(now.at - first.at, 1e-9)
    return any(
        cpu_between(before[t.tid], t)[0] >= LIVELOCK_CPU_SHARE * span for t in now.threads if t.tid in before
    )


def look(
    pids: list[int],
    window: float = LOOK_WINDOW_S,
    *,
    progress: bool = False,
    progress_tids: dict[int, int] | None = None,
    stacks: Callable[[int], bool] = lambda pid: True,
) -> dict[int, Looked]:
    """Look at every pid over `window` seconds (in parallel); processes that exit are GONE.

    `stacks(pid)` says whether a process's stacks are taken at all (``run`` takes them only
    where /proc cannot decide). `progress_tids` names each process's thread that must make
    progress (default: its main thread)."""
    if not pids:
        return {}
    t0 = time.monotonic()
    series: dict[int, list[ProcSample]] = {}
    for pid in pids:
        start = procfs.sample(pid)
        series[pid] = [start] if start is not None else []
    live = [p for p in pids if series[p] and stacks(p)]
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
        tid = (progress_tids or {}).get(pid, pid)
        f = judge(a, b, progress_tid=tid, progress=progress)
        if len(s) > 2:
            f = replace(f, samples=tuple(s))
        cap = None
        if pid in first and f.kind is not ProbeKind.GONE:
            cap = capture.assemble(f, first[pid], tuple(later[pid]))
        taken = [first[pid], *later[pid]] if pid in first else []
        stops = sum(int(st.pyspy.elapsed_s > 0) + int(st.native.elapsed_s > 0) for st in taken)
        out[pid] = Looked(f, cap, tuple(s), stops)
    return out
