"""`gvlstress doctor`: will a run on this host get full diagnostics? Checks, each with a hint.
`gvlstress doctor --export FILE`: this host's profile, for `run --like FILE` elsewhere.

Attach checks are real: a child process blocked on a pipe is the subject, and py-spy and the
native stack tool each try to read it. So are a profile's pool sizes: a fresh interpreter with
the profiled process's thread knobs and affinity starts rayon's pool (and each built-in loader's
whose record has a pool probe) and says how big it is.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from gvlstress.errors import UsageError
from gvlstress.hosts.profile_file import write
from gvlstress.model import Check, syscalls
from gvlstress.model.profile import HostProfile
from gvlstress.probes import host as hostenv
from gvlstress.probes import native, procfs, pyspy
from gvlstress.probes import profile as profiles
from gvlstress.system.knobs import thread_knobs
from gvlstress.system.safeio import replaceable
from gvlstress.targets.registry import BUILTINS, builtin_loaders

MEASURE_S = 300.0
"""A loader's cold import (numba compiling, say) takes a while on a small host: a deadline."""
RAYON_CODE = (
    "import gvlstress_native\nprint(json.dumps({'rayon': int(gvlstress_native.current_num_threads())}))\n"
)


def _subject() -> subprocess.Popen[bytes]:
    """A live Python process that waits on its stdin: something to attach to."""
    return subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE, start_new_session=True
    )


def run_checks() -> tuple[Check, ...]:
    """Every check of this host, in the order the report lists them: what a run needs first
    (procfs, ptrace, the stack tools on a live test process), then what makes it better."""
    return (*_access(), *_tools_on_a_test_process(), *_host())


def _access() -> tuple[Check, ...]:
    """/proc, and the ptrace policy the stack tools live under."""
    proc_ok = os.path.isdir("/proc/self/task")
    facts = hostenv.ptrace_facts()
    scope = facts["yama_ptrace_scope"]
    scope_text = {
        None: "no Yama LSM (classic ptrace rules)",
        0: "0 (classic)",
        1: "1 (restricted to descendants)",
        2: "2 (admin only)",
        3: "3 (no attach)",
    }.get(scope, str(scope))
    scope_ok = scope in (None, 0, 1) or facts["cap_sys_ptrace"]
    return (
        Check(
            "/proc",
            proc_ok,
            "per-thread state, syscalls and CPU readable" if proc_ok else "missing",
            None if proc_ok else "gvlstress needs Linux procfs",
        ),
        Check(
            "ptrace policy",
            scope_ok,
            f"yama ptrace_scope {scope_text}; uid {facts['uid']}; CAP_SYS_PTRACE {facts['cap_sys_ptrace']}"
            + ("; in a container" if facts["container"] else ""),
            None
            if scope_ok
            else "echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope, or run with CAP_SYS_PTRACE "
            "(docker run --cap-add SYS_PTRACE)",
        ),
    )


def _tools_on_a_test_process() -> tuple[Check, ...]:
    """py-spy, the native tool and futex decoding, each tried on a live test process."""
    checks: list[Check] = []
    subject = _subject()
    try:
        path = pyspy.locate()
        if path is None:
            checks.append(Check("py-spy", False, "not found", "pip install py-spy (a gvlstress dependency)"))
        else:
            run, threads, _ = pyspy.dump(subject.pid, timeout=20, native=False)
            checks.append(
                Check(
                    "py-spy attach",
                    run.ok,
                    f"py-spy {pyspy.version(path)} read {len(threads)} thread(s) of a test process in {run.elapsed_s:.2f}s"
                    if run.ok
                    else f"py-spy {pyspy.version(path)}: {run.error}",
                    None if run.ok else "py-spy needs ptrace on the workers: see the ptrace policy line",
                )
            )
        found = native.locate()
        if found is None:
            checks.append(
                Check(
                    "native stacks",
                    False,
                    "no pystack, eu-stack or gdb",
                    "pip install pystack (Python processes), or apt-get install elfutils (eu-stack) or gdb",
                )
            )
        else:
            run, nthreads, _ = native.stacks(subject.pid, timeout=30)
            others = ", ".join(n for n, _ in native.available()[1:]) or "none"
            slow = run.ok and run.tool == "gdb"  # works, but ~2 s a process: a degraded backend
            checks.append(
                Check(
                    "native stacks",
                    run.ok and not slow,
                    f"{run.tool} read {len(nthreads)} thread(s) in {run.elapsed_s:.2f}s (fallbacks: {others})"
                    + (" -- gdb only: slow, about 2 s per hung worker" if slow else "")
                    if run.ok
                    else f"{found[0]}: {run.error}",
                    "pip install pystack (fast, for Python processes)"
                    if slow
                    else (None if run.ok else "the native tool needs ptrace too: see the ptrace policy line"),
                )
            )
        sample = procfs.sample(subject.pid)
        futex_ok = bool(syscalls.futex_syscalls())
        checks.append(
            Check(
                "futex addresses",
                futex_ok and sample is not None,
                f"syscall decoding for {syscalls.MACHINE}"
                if futex_ok
                else f"futex syscall numbers unknown on {syscalls.MACHINE}",
                None if futex_ok else "verdicts fall back to thread states and CPU only",
                required=False,
            )
        )
    finally:
        subject.kill()
        subject.wait(10)
    return tuple(checks)


def _host() -> tuple[Check, ...]:
    """What makes a run better here: demangling, the CPU budget, inherited knobs, the loader."""
    checks: list[Check] = []
    from gvlstress.probes import tools

    cxx = tools.find("c++filt")
    checks.append(
        Check(
            "demangling",
            cxx is not None,
            f"c++filt at {cxx} (legacy and v0 Rust symbols)"
            if cxx
            else "no c++filt: legacy Rust symbols only, v0 (std) left mangled",
            None if cxx else "apt-get install binutils",
            required=False,
        )
    )
    budget = hostenv.cpu_budget()
    checks.append(
        Check(
            "CPU budget",
            True,
            f"{budget.cpu_count} CPUs, affinity {budget.affinity}, cgroup quota "
            f"{f'{budget.quota:g} ({budget.quota_source})' if budget.quota else 'none'} -> {budget.cpus:g} usable",
            "nproc and affinity ignore the quota; size pools from the budget"
            if budget.quota and budget.quota < budget.affinity
            else None,
            required=False,
        )
    )
    knobs = thread_knobs(os.environ)
    checks.append(
        Check(
            "thread knobs",
            "RAYON_NUM_THREADS" not in knobs,
            ", ".join(f"{k}={v}" for k, v in knobs.items()) or "none set",
            "RAYON_NUM_THREADS is set here: every worker inherits it, and a library that only setdefault()s keeps it"
            if "RAYON_NUM_THREADS" in knobs
            else None,
            required=False,
        )
    )
    try:
        import gvlstress_native

        checks.append(
            Check(
                "native loader",
                True,
                f"gvlstress_native {gvlstress_native.__version__}: run `gvlstress selftest` (the positive "
                "controls) before trusting a clean run of a real target",
                required=False,
            )
        )
    except ImportError:
        checks.append(
            Check(
                "native loader", False, "gvlstress_native not built", "pip install ./native", required=False
            )
        )
    return tuple(checks)


def healthy(checks: tuple[Check, ...]) -> bool:
    return all(c.ok for c in checks if c.required)


def packages_for(target: str | None) -> tuple[str, ...]:
    """The packages whose versions a profile keeps: each built-in loader's stack (its record's),
    and a third-party target's own top-level package."""
    own = () if target is None or target in BUILTINS else (target.partition(":")[0].split(".")[0],)
    return tuple(dict.fromkeys((*(p for r in builtin_loaders() for p in r.stack), *own)))


def export(path: Path, pid: int | None, python: str | None, target: str | None, force: bool) -> HostProfile:
    """Read this host's profile (for process `pid`, by default this one) with its pools measured,
    and write it to `path` (never over a file without `force`, never over anything but a
    regular file)."""
    replaceable(path)  # /dev/null, a FIFO, a directory: refused, --force or not
    if path.exists() and not force:
        raise UsageError(f"{path} exists", hint="pass --force to replace it, or another path")
    profile = profiles.read(pid, python, packages_for(target))
    knobs, cpus = profiles.environment(pid), profiles.affinity(pid)
    pools: dict[str, int] = {}
    if importlib.util.find_spec("gvlstress_native") is not None:
        pools |= profiles.run_with(sys.executable, RAYON_CODE, knobs, cpus) or {}
    interp = profiles.interpreter_of(pid, python)
    for loader in builtin_loaders():  # each loader's pool as its workers would get it there
        if interp is not None and loader.pool_probe and loader.package in profile.packages:
            pools |= profiles.run_with(interp, loader.pool_probe, knobs, cpus, MEASURE_S) or {}
    profile = dataclasses.replace(profile, pools={k: int(v) for k, v in sorted(pools.items())})
    write(profile, path)
    return profile
