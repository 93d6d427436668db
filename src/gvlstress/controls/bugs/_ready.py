"""The handshake every catalogue trigger uses: poll /proc (bounded) until the hang is in
place, then print `look <pid>` (the process to inspect) and `ready`. Standalone: a trigger may
run in a venv that has no gvlstress, on any CPython from 3.8 (keep this module to that syntax).

Triggers whose hang would stop the process that announces it (a thread spinning with the GIL
held, fork() that never returns, a pool whose launcher must hold no thread of ours) run the
buggy code in an `app` child and watch it from outside, through /proc only."""

# ruff: noqa: T201  (printing the handshake is the protocol)

from __future__ import annotations

import multiprocessing as mp
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

NO_RUNTIME = 4
"""Exit code of a trigger whose runtime this host lacks (the catalogue reports a skip)."""
FUTEX = {"x86_64": "202", "aarch64": "98"}.get(os.uname().machine, "202")
_NR = {
    # name: (x86_64, aarch64); aarch64 has only the p*/epoll_pwait forms of some waits
    "read": ("0", "63"),
    "write": ("1", "64"),
    "poll": ("7", "73"),
    "ppoll": ("271", "73"),
    "select": ("23", "72"),
    "pselect6": ("270", "72"),
    "epoll_wait": ("232", "22"),
    "epoll_pwait": ("281", "22"),
    "futex": ("202", "98"),
    "wait4": ("61", "260"),
    "waitid": ("247", "95"),
    "recvfrom": ("45", "207"),
    "accept4": ("288", "242"),
    "nanosleep": ("35", "101"),
    "clock_nanosleep": ("230", "115"),
}
_ARCH = 1 if os.uname().machine == "aarch64" else 0
NR = {name: numbers[_ARCH] for name, numbers in _NR.items()}
"""Syscall numbers by name on this machine (what /proc/PID/syscall shows)."""
POLLS = {NR[n] for n in ("poll", "ppoll", "select", "pselect6")}
EPOLLS = {NR[n] for n in ("epoll_wait", "epoll_pwait")}
SLEEPS = {NR["nanosleep"], NR["clock_nanosleep"]}
WAITS = {NR[n] for n in ("read", "futex", "wait4", "waitid", "recvfrom", "accept4")} | POLLS | EPOLLS
"""Blocking waits on something another thread or process must do (not a timed sleep)."""


def syscalls(pid: int) -> list[str]:
    """The syscall number (or 'running') of each thread of `pid`; [] if it is gone."""
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/syscall") as fh:
                out.append(fh.read().split()[0])
    except (OSError, IndexError):
        return []
    return out


def settled(
    check: Callable[[], bool], what: str, timeout: float = 30.0, stable: int = 5, interval: float = 0.05
) -> None:
    """Wait until `check()` holds for `stable` polls `interval` apart in a row; exit 3 after
    `timeout`."""
    deadline = time.monotonic() + timeout
    run = 0
    while run < stable:
        if time.monotonic() > deadline:
            print(f"never {what}", file=sys.stderr, flush=True)
            os._exit(3)
        run = run + 1 if check() else 0
        time.sleep(interval)


def parked(pid: int, threads: int | None = None) -> bool:
    """Every thread of `pid` in a futex wait (and, given `threads`, exactly that many)."""
    calls = syscalls(pid)
    return bool(calls) and all(c == FUTEX for c in calls) and (threads is None or len(calls) == threads)


def shared_wait(pid: int) -> bool:
    """Every thread of `pid` in a futex wait without FUTEX_PRIVATE_FLAG (op & 128 clear): a
    lock between processes, e.g. a multiprocessing SemLock (a private futex is a lock of the
    process's own, e.g. one a fork copied held)."""
    rows = []
    for tid in tids(pid):
        try:
            with open(f"/proc/{pid}/task/{tid}/syscall") as fh:
                rows.append(fh.read().split())
        except OSError:
            return False
    return bool(rows) and all(len(r) > 2 and r[0] == FUTEX and not int(r[2], 16) & 128 for r in rows)


def announce(look: int) -> None:
    print(f"look {look}", flush=True)
    print("ready", flush=True)


def forever() -> None:
    while True:
        time.sleep(3600)


def control() -> bool:
    """Run the fixed variant (the documented workaround) instead of the trigger."""
    return sys.argv[1:2] == ["control"]


def in_futex(pid: int) -> int:
    """How many threads of `pid` are in a futex wait."""
    return _count(syscalls(pid), FUTEX)


def _count(calls: list[str], nr: str) -> int:
    return sum(1 for c in calls if c == nr)


def fork_or_spawn(work: Callable[[], object]) -> None:
    """The fork-after-a-pool triggers: `work` (a module-level function) in a forked child, which
    hangs, announced once parked; in control, in a spawn child, which must finish (exit code)."""
    if control():
        p = mp.get_context("spawn").Process(target=work)
        p.start()
        p.join(timeout=120)
        sys.exit(0 if p.exitcode == 0 else 1)
    pid = os.fork()
    if pid == 0:
        work()
        os._exit(0)
    settled(lambda: parked(pid), "parked")
    announce(pid)
    forever()


def held_lock(hold_s: float | None) -> threading.Lock:
    """A lock a daemon thread holds for `hold_s` seconds (None: forever), returned once held."""

    lock = threading.Lock()
    held = threading.Event()

    def holder() -> None:
        with lock:
            held.set()
            threading.Event().wait(hold_s)

    threading.Thread(target=holder, name="holder", daemon=True).start()
    held.wait()
    return lock


def reap_or_announce(pid: int) -> None:
    """After a fork: in control, exit with the child's exit code; else announce the child once
    its one thread is parked, and wait."""
    if control():
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
    settled(lambda: parked(pid, threads=1), "parked")
    announce(pid)
    forever()


def reap_or_announce_spin(pid: int) -> None:
    """After a fork whose child spins: in control, exit with the child's exit code; else reap it
    in a thread when it ends, announce it once its one thread spins, and wait."""
    if control():
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
    threading.Thread(target=os.waitpid, args=(pid, 0), name="reaper", daemon=True).start()
    spinning = Spinning(pid)
    settled(lambda: len(tids(pid)) == 1 and spinning(), "spinning in the child", stable=5, interval=0.2)
    announce(pid)
    forever()


def app(
    *args: str,
    env: dict[str, str] | None = None,
    stdout: int | None = subprocess.DEVNULL,
    stdin: int | None = None,
) -> subprocess.Popen[bytes]:
    """This program again as a child, `PROGRAM _app ARGS`: the process with the bug, watched
    from outside (its stdout is not the handshake's; `stdin=PIPE` lets this program tell it
    when to go on, a handshake where the app must wait for something done from outside)."""
    script = os.path.abspath(sys.argv[0])
    return subprocess.Popen([sys.executable, script, "_app", *args], env=env, stdout=stdout, stdin=stdin)


def is_app() -> bool:
    return sys.argv[1:2] == ["_app"]


def line(proc: subprocess.Popen[bytes], timeout: float = 60.0) -> str:
    """The next line the child prints on its stdout pipe ('' at its exit or after `timeout`)."""
    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            return ""
    return proc.stdout.readline().decode(errors="replace").strip()


def tids(pid: int) -> list[int]:
    try:
        return sorted(int(t) for t in os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return []


def call_of(pid: int, tid: int | None = None) -> str:
    """The syscall number one thread (the main one by default) is in ('running', '' if gone)."""
    try:
        with open(f"/proc/{pid}/task/{tid or pid}/syscall") as fh:
            return fh.read().split()[0]
    except (OSError, IndexError):
        return ""


def stat(pid: int, tid: int | None = None) -> list[str]:
    """/proc stat fields after the command name: [0] state, [11] utime, [12] stime."""
    path = f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat"
    try:
        with open(path) as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def state(pid: int) -> str:
    """R, S, D, T, Z... ('' once the process is gone and reaped)."""
    fields = stat(pid)
    return fields[0] if fields else ""


def alive(pid: int) -> bool:
    return state(pid) not in ("", "Z", "X")


def children(pid: int) -> list[int]:
    """The child processes of `pid`, zombies included."""
    out: set[int] = set()
    for tid in tids(pid):
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                out.update(int(k) for k in fh.read().split())
        except OSError:
            continue
    return sorted(out)


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def workers(pid: int) -> list[int]:
    """The live children of a pool's launcher but multiprocessing's resource tracker."""
    return [k for k in children(pid) if alive(k) and "resource_tracker" not in cmdline(k)]


def waiting(pid: int, but: int | None = None) -> bool:
    """Every thread of `pid` (but `but`) blocked in a wait on another thread or process: no thread
    running, none in a timed sleep."""
    calls = [call_of(pid, tid) for tid in tids(pid) if tid != but]
    return bool(calls) and all(c in WAITS for c in calls)


def sleeping(pid: int) -> bool:
    """Some thread of `pid` in nanosleep/clock_nanosleep (a task's time.sleep)."""
    return any(call_of(pid, tid) in SLEEPS for tid in tids(pid))


def _per_thread(pid: int, read: Callable[[int], int | None]) -> dict[int, int]:
    out = {}
    for tid in tids(pid):
        value = read(tid)
        if value is not None:
            out[tid] = value
    return out


class Spinning:
    """Is a thread of `pid` spinning? Each call measures since the previous one, per thread, the
    time it ran plus the time it waited to run (schedstat): a thread that wants the CPU all along
    is near 1 even on a loaded host, where its CPU share alone can be low."""

    def __init__(self, pid: int, share: float = 0.8) -> None:
        self.pid, self.share = pid, share
        self.last, self.at = self._demand(), time.monotonic()

    def _demand(self) -> dict[int, int]:
        def read(tid: int) -> int | None:
            try:
                with open(f"/proc/{self.pid}/task/{tid}/schedstat") as fh:
                    run_ns, wait_ns = fh.read().split()[:2]
                return int(run_ns) + int(wait_ns)
            except (OSError, ValueError):
                return None

        return _per_thread(self.pid, read)

    def __call__(self) -> bool:
        now, at = self._demand(), time.monotonic()
        span = max(at - self.at, 1e-3) * 1e9
        hot = [t for t, ns in now.items() if t in self.last and (ns - self.last[t]) / span >= self.share]
        self.last, self.at = now, at
        return bool(hot)


class Woken:
    """Does a thread of `pid` wake at least `rate` times a second (voluntary switches since the
    previous call)? A thread waiting for a GIL its holder never drops wakes on every 5 ms switch
    interval, asks for the GIL again and waits again: ~200 times a second."""

    def __init__(self, pid: int, rate: float = 100.0) -> None:
        self.pid, self.rate = pid, rate
        self.last, self.at = self._switches(), time.monotonic()

    def _switches(self) -> dict[int, int]:
        def read(tid: int) -> int | None:
            try:
                with open(f"/proc/{self.pid}/task/{tid}/status") as fh:
                    for row in fh:
                        if row.startswith("voluntary_ctxt_switches"):
                            return int(row.split()[1])
            except (OSError, ValueError):
                return None
            return None

        return _per_thread(self.pid, read)

    def __call__(self) -> bool:
        now, at = self._switches(), time.monotonic()
        span = max(at - self.at, 1e-3)
        fast = [t for t, n in now.items() if t in self.last and (n - self.last[t]) / span >= self.rate]
        self.last, self.at = now, at
        return bool(fast)


class InKernel:
    """Did the main thread of `pid` spend at least `share` of its CPU in the kernel since the
    previous call (a sched_yield loop; not user-space work such as a JIT compiling)?"""

    def __init__(self, pid: int, share: float = 0.5) -> None:
        self.pid, self.share = pid, share
        self.last = self._times()

    def _times(self) -> tuple[int, int]:
        fields = stat(self.pid, self.pid)
        return (int(fields[11]), int(fields[12])) if len(fields) > 12 else (0, 0)

    def __call__(self) -> bool:
        (u0, s0), (u1, s1) = self.last, self._times()
        self.last = (u1, s1)
        used = (u1 - u0) + (s1 - s0)
        return used > 0 and (s1 - s0) >= self.share * used


def kill_in_task(workers: Callable[[], list[int]]) -> int:
    """SIGKILL the first of a pool's workers seen sleeping inside a task (as the OOM killer
    would kill it); its pid."""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        for pid in workers():
            if sleeping(pid):
                os.kill(pid, signal.SIGKILL)
                return pid
        time.sleep(0.005)  # polling /proc for a worker inside a task
    raise SystemExit("no worker ever ran a task")


def task_lost(app: int, victim: int) -> bool:
    """The killed worker's task is lost: the victim is reaped, two live workers wait for a task
    (none sleeps in one), and every thread of the app waits (its main thread for the result)."""
    live = [k for k in children(app) if alive(k)]
    return (
        victim not in children(app)
        and len(live) == 2
        and all(waiting(k) for k in live)
        and waiting(app)
        and call_of(app) == FUTEX
    )
