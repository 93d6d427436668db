"""Read a host's profile: the conditions that shape thread scheduling there, for a process.

Everything is read, nothing guessed: CPUs online, the process's affinity and its cgroups' CPU
quota, cpuset and memory limit (`cgroupfs`), the machine's RAM and swap, the thread knobs in its
environment (names as set, values redacted where they could be secrets, no other variable),
the start method its children show, its interpreter and the versions of the packages asked for.
By default the process is this one; ``pid`` reads another (a user's pipeline) through /proc.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import socket
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

from gvlstress import __version__
from gvlstress.errors import EnvironmentProblem, UsageError
from gvlstress.model.profile import CpuProfile, HostProfile, MemoryProfile, ProcessProfile, SystemProfile
from gvlstress.probes import cgroupfs, tools
from gvlstress.system.knobs import is_knob, knob_values, thread_knobs
from gvlstress.system.redact import redact_path, redact_text

PROBE_S = 120.0
_VERSIONS = (
    "import json, platform, sys\n"
    "from importlib import metadata\n"
    "def v(n):\n"
    "    try:\n        return metadata.version(n)\n"
    "    except Exception:\n        return None\n"
    "print(json.dumps({'python': sys.version.split()[0], 'implementation': platform.python_implementation(),"
    " 'executable': sys.executable, 'packages': {n: v(n) for n in sys.argv[1:]}}))\n"
)
_SPAWN = "multiprocessing.spawn"
_FORKSERVER = "multiprocessing.forkserver"


def cpu_list(cpus: set[int] | frozenset[int]) -> str:
    """{0, 1, 2, 5} -> '0-2,5'."""
    runs: list[list[int]] = []
    for c in sorted(cpus):
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return ",".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)


def _proc(pid: int | None, name: str) -> Path:
    return Path(f"/proc/{pid if pid is not None else 'self'}/{name}")


def environment(pid: int | None) -> dict[str, str]:
    """The process's environment, thread knobs only, as they are (redacted by the caller)."""
    if pid is None:
        return knob_values(os.environ)
    try:
        raw = _proc(pid, "environ").read_bytes()
    except FileNotFoundError:
        raise UsageError(
            f"--pid {pid}: no such process", hint="pass the pid of the running pipeline"
        ) from None
    except ProcessLookupError:  # in /proc, but with no memory to read its environment from
        raise UsageError(
            f"--pid {pid}: {_no_memory(pid)}, which has no environment to read",
            hint="give --pid the pid of the pipeline's main process, which is running",
        ) from None
    except PermissionError:
        raise EnvironmentProblem(
            f"--pid {pid}: cannot read its environment (permission denied)",
            hint="run doctor as the pipeline's user, or as root",
        ) from None
    pairs = (item.partition(b"=") for item in raw.split(b"\0") if item)
    env = {k.decode(errors="replace"): v.decode(errors="replace") for k, _, v in pairs}
    return knob_values(env)


def _no_memory(pid: int) -> str:
    """What a process with no memory to read is: a zombie (exited, not yet waited for) or a
    kernel thread."""
    try:
        state = _proc(pid, "stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return "a process that ended"
    return "a zombie (it exited; its parent has not waited for it)" if state == "Z" else "a kernel thread"


def affinity(pid: int | None) -> set[int]:
    try:
        return set(os.sched_getaffinity(pid or 0))
    except ProcessLookupError:
        raise UsageError(
            f"--pid {pid}: no such process", hint="pass the pid of the running pipeline"
        ) from None


def _meminfo() -> dict[str, int]:
    out = {}
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            key, _, rest = line.partition(":")
            parts = rest.split()
            if parts and parts[0].isdigit():
                out[key] = int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
    except OSError:
        pass
    return out


def start_method(pid: int | None) -> tuple[str | None, str]:
    """The start method the process's children show (spawn and forkserver children run a
    multiprocessing entry; a fork child runs its parent's command line), and how it was seen."""
    if pid is None:
        default = multiprocessing.get_context().get_start_method()
        return None, (
            f"not seen: pass --pid of the pipeline's main process while its workers run "
            f"(Python {sys.version_info[0]}.{sys.version_info[1]}'s default here is {default})"
        )
    try:
        parent = psutil.Process(pid)
        kids = [(k.pid, " ".join(k.cmdline())) for k in parent.children()]
        own = " ".join(parent.cmdline())
    except psutil.Error:
        kids, own = [], ""
    for kid, line in kids:
        for marker, method in ((_SPAWN, "spawn"), (_FORKSERVER, "forkserver")):
            if marker in line:
                return method, f"a child of pid {pid} (pid {kid}) runs {marker}"
        if line and line == own:
            return "fork", f"a child of pid {pid} (pid {kid}) runs its parent's command line (fork)"
    return None, f"not seen: pid {pid} had no multiprocessing children when it was read"


def interpreter_of(pid: int | None, python: str | None) -> str | None:
    """The interpreter whose versions are read: the one given, the process's own when it is a
    Python, else this one (None when --pid names a process that is no Python). A virtual
    environment's python is a link to its base interpreter, so /proc/PID/exe names the base (and
    not the environment's packages): the command line's first word, when it is that same file,
    names the environment's."""
    if python is not None:
        return python
    if pid is None:
        return sys.executable
    try:
        exe = os.readlink(_proc(pid, "exe"))
        argv0 = _proc(pid, "cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        cwd = os.readlink(_proc(pid, "cwd"))
    except OSError:
        return None
    if "python" not in Path(exe).name:
        return None
    first = Path(cwd, argv0) if argv0 else None  # an absolute argv0 replaces cwd
    if first is not None and first.is_file() and os.path.realpath(first) == os.path.realpath(exe):
        return str(first)
    return exe


def versions(python: str | None, packages: tuple[str, ...]) -> dict[str, Any]:
    """The interpreter's version and the packages' (those installed), read by running it."""
    if python is None:
        return {}
    if python == sys.executable:
        from importlib import metadata

        found: dict[str, Any] = {}
        for name in packages:
            try:
                found[name] = metadata.version(name)
            except metadata.PackageNotFoundError:
                continue
        return {
            "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
            "executable": sys.executable,
            "packages": found,
        }
    out = tools.run([python, "-c", _VERSIONS, *packages], PROBE_S)
    try:
        info: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        raise UsageError(
            f"--python {python}: not a Python interpreter that runs ({out.error or 'no answer'})",
            hint="pass the python of the pipeline's environment",
        ) from None
    info["packages"] = {k: v for k, v in info.get("packages", {}).items() if v}
    return info


def run_with(
    python: str, code: str, knobs: Mapping[str, str], cpus: set[int], timeout: float = PROBE_S
) -> dict[str, Any] | None:
    """Run `code` (which prints one JSON object) in a fresh `python` whose thread knobs are
    exactly `knobs` and whose affinity is `cpus`, as the profiled process's would be."""
    drop = [k for k in os.environ if is_knob(k) and k not in knobs]
    prelude = (
        "import json, os, sys\n"
        "for k in json.loads(sys.argv[1]):\n    os.environ.pop(k, None)\n"
        "os.environ.update(json.loads(sys.argv[2]))\n"
        "os.sched_setaffinity(0, json.loads(sys.argv[3]))\n"
    )
    out = tools.run(
        [python, "-c", prelude + code, json.dumps(drop), json.dumps(dict(knobs)), json.dumps(sorted(cpus))],
        timeout,
    )
    try:
        result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return None
    return result if out.ok else None


def read(pid: int | None = None, python: str | None = None, packages: tuple[str, ...] = ()) -> HostProfile:
    """This host's profile, for process `pid` (default: this one) and the interpreter `python`
    (default: the process's own); redacted at the door (names, paths, values)."""
    knobs = environment(pid)
    cpus = affinity(pid)
    proc_cgroup = _proc(pid, "cgroup")
    quota = cgroupfs.cpu_quota(proc_cgroup=proc_cgroup)
    memory = cgroupfs.memory_limit(proc_cgroup=proc_cgroup)
    info = _meminfo()
    method, how = start_method(pid)
    interp = interpreter_of(pid, python)
    found = versions(interp, packages)
    libc = os.confstr("CS_GNU_LIBC_VERSION") if "CS_GNU_LIBC_VERSION" in os.confstr_names else None
    return HostProfile(
        cpu=CpuProfile(
            count=os.cpu_count() or len(cpus),
            affinity=len(cpus),
            affinity_list=cpu_list(cpus),
            cpuset=cgroupfs.cpuset(proc_cgroup=proc_cgroup),
            quota=round(quota.cores, 6) if quota else None,
            quota_us=quota.quota_us if quota else None,
            period_us=quota.period_us if quota else None,
            quota_file=redact_path(quota.file) if quota else None,
            cgroup_version=cgroupfs.cgroup_version(),
        ),
        memory=MemoryProfile(
            total=info.get("MemTotal"),
            swap_total=info.get("SwapTotal"),
            limit=memory.limit,
            swap_limit=memory.swap_limit,
            limit_file=redact_path(memory.file) if memory.file else None,
        ),
        process=ProcessProfile(
            python=str(found.get("python", "")),
            implementation=str(found.get("implementation", "")),
            executable=redact_path(str(found.get("executable") or interp or "")),
            start_method=method,
            start_method_how=how,
            pid=pid,
        ),
        system=SystemProfile(
            kernel=platform.release(),
            glibc=(libc or "").removeprefix("glibc ") or platform.libc_ver()[1],
            machine=platform.machine(),
            os=platform.platform(),
        ),
        threads=thread_knobs(knobs),
        packages={k: redact_text(str(v)) for k, v in sorted(found.get("packages", {}).items())},
        host=redact_text(socket.gethostname()),
        exported_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        gvlstress=__version__,
    )
