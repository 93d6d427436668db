"""Scenarios: a frozen description of a run, and what each of its settings may hold.

Parse, then act: `Scenario` is what every layer reads; `check_setting` holds each setting to the
one bound every command shares and `check_combinations` refuses settings that cannot go
together, each error naming where the bad value came from (the file and key, or the CLI option).
Finding and reading scenario files and layering them under a command's options:
`scenario_sources`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gvlstress.errors import UsageError
from gvlstress.system.knobs import is_knob
from gvlstress.system.knobs import redact as redact_knob
from gvlstress.system.redact import redact_mapping, redact_path, redact_text

START_METHODS = ("spawn", "forkserver", "fork")
KILL_WORKER = ("random", "sending")
_SIZES = ("result_bytes", "memory_limit", "core_limit")
_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def _human(n: int) -> str:
    """A byte count as a size one would type: 16M, 2G, 1P."""
    for unit, size in (("P", 2**50), ("T", 2**40), ("G", 2**30), ("M", 2**20), ("k", 2**10)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def parse_size(text: str, origin: str) -> int:
    """'64M', '1.5G', '16k', '1048576' (binary units; an optional 'i' or 'B') -> bytes."""
    t = text.strip().lower().removesuffix("b").removesuffix("i")
    unit = t[-1:] if t[-1:] in _UNITS and t[-1:] else ""
    try:
        value = float(t[: len(t) - len(unit)] if unit else t) * _UNITS[unit]
    except ValueError:
        raise UsageError(f"{origin}: expected a size such as 64M or 2G, got {text!r}") from None
    if not math.isfinite(value):
        raise UsageError(f"{origin}: must be a finite size, got {text!r}")
    return int(value)


@dataclass(frozen=True)
class Scenario:
    """Every setting of a run, resolved. run.json records all of it."""

    name: str = "adhoc"
    description: str = ""
    target: str = "native"
    workers: int = 5
    rayon: int | None = None
    """Threads per worker, applied inside the worker before the target is imported."""
    inherit_rayon: int | None = None
    """RAYON_NUM_THREADS the workers inherit from the parent's environment (as from a base image)."""
    waves: int = 3
    iterations: int = 100
    duration: float | None = None
    """Seconds each worker iterates per wave; replaces `iterations` when set."""
    timeout: float = 60.0
    stall: float | None = None
    """Seconds without a heartbeat before a worker is probed; None: adaptive."""
    stall_floor: float = 2.0
    startup_grace: float = 30.0
    """Allowance for spawn + import + open before the first batch."""
    start_method: str = "spawn"
    fault: str = "none"
    fault_rate: float = 1.0
    seed: int = 0
    report_dir: str = "reports"
    python: str | None = None
    """Interpreter for the workers (e.g. a venv with another release of the loader); None: this one."""
    warm_parent: bool = False
    """Run one batch in the supervisor before the first wave, so its rayon pool exists when
    workers fork. Only for the fork-after-init class (with start_method = "fork")."""
    preload: bool = False
    """Import the target in the fork server once, before it forks any worker (start_method =
    "forkserver"): each wave skips the interpreter start and the heavy imports. Refused when
    the import leaves a thread running in the fork server (workers would inherit a dead pool)."""
    thread_env: tuple[str, ...] = ()
    """More variables `rayon` sets in each worker, beyond those the target declares."""
    squeeze: int | None = None
    """Amplifier: pin every thread of each worker to this many CPUs once its pool exists."""
    cpu_quota: float | None = None
    """Amplifier: run each wave's workers in a child cgroup with this many cores of CFS quota."""
    burners: int = 0
    """Amplifier: this many CPU-burning neighbour processes during each wave."""
    chaos: int | None = None
    """Amplifier: rr-style strict starvation (a victim thread stopped, not lowered), seeded."""
    delays: int | None = None
    """Amplifier: a preloaded layer delays a seeded few of each worker's futex waits and wakes,
    sched_yield calls, pthread locks and CPython's waits, most often near where earlier hangs'
    threads waited (workers the harness spawns only)."""
    switch_interval: float | None = None
    """Amplifier: each worker's ``sys.setswitchinterval`` before the target is imported: forced
    GIL hand-offs that often, so a window where a thread holds a native lock and then lets the
    GIL go (a GIL <-> lock inversion, a fork with a lock held) is hit far more often."""
    gang: int = 0
    """Amplifier: the iterating workers take turns owning the machine, the others stopped, in
    slices of about this many milliseconds (0: off)."""
    result_bytes: int = 0
    """Each worker's task returns this many bytes with its report, as a training task returns
    weights or metrics: the executor's result path carries what a user's does."""
    memory_limit: int | None = None
    """Bytes the wave's workers may use together (a memory cgroup): the kernel's OOM killer then
    picks a victim, as on a host under memory pressure."""
    kill_worker: str | None = None
    """Kill one worker with SIGKILL: at a `random` (seeded) batch of the wave, or while it is
    `sending` its result (blocked writing to the executor's result pipe)."""
    keep_core: bool = False
    """Write a compressed core of each hung worker before it is killed (``--keep-core``). Off by
    default: a core holds the worker's memory, and with it whatever secrets that memory held."""
    core_limit: int = 256 * 2**20
    """Bytes of a hung worker's memory one core may save (uncompressed); the rest is left out."""
    warm_up: bool = True
    """Run the target's warm-up (one process, one batch) before the first wave when the target
    asks for one; off reproduces races on a cold JIT cache."""
    inherit_env: Mapping[str, str] = field(default_factory=dict)
    """Thread knobs the workers are born with, as from a host's environment (an empty value: born
    without it); `inherit_rayon`, when set, decides RAYON_NUM_THREADS."""
    like: str | None = None
    """A host profile (``gvlstress doctor --export``) whose conditions the waves recreate: what
    this scenario leaves at its defaults is filled in from it, scaled to this machine."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Target-specific settings (the `[target]` table of a scenario file)."""
    source: str = "defaults"
    """Where the scenario came from: a file path, or 'defaults'."""

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["options"] = dict(self.options)
        return out

    @property
    def perturbs(self) -> bool:
        """Chaos or the gang stops this scenario's workers while they run."""
        return self.chaos is not None or bool(self.gang)

    def recorded(self) -> Scenario:
        """This scenario as reports keep it: option values under secret names (``password``,
        ``api_key``...) and secrets anywhere by value redacted. Never run from it."""
        return dataclasses.replace(
            self,
            name=redact_text(self.name),
            description=redact_text(self.description),
            source=redact_path(self.source),
            report_dir=redact_path(self.report_dir),
            python=redact_path(self.python) if self.python else None,
            like=redact_path(self.like) if self.like else None,
            inherit_env={k: redact_knob(k, v) for k, v in self.inherit_env.items()},
            options=redact_mapping(self.options),
        )


_FIELDS = {f.name: f for f in dataclasses.fields(Scenario)}
SETTABLE = frozenset(_FIELDS) - {"source", "options"}
"""The settings a scenario file's [scenario] table or a command's options may set."""

# (type, minimum, maximum) per numeric field; None bounds are open.
DAY = 86_400.0
# (type, minimum, maximum) per numeric field: every one finite and bounded, durations in seconds.
_NUMERIC: dict[str, tuple[type, float, float]] = {
    "workers": (int, 1, 512),
    "rayon": (int, 1, 4096),
    "inherit_rayon": (int, 1, 4096),
    "waves": (int, 1, 1_000_000),
    "iterations": (int, 1, 10**12),
    "duration": (float, 0.001, 7 * DAY),
    "timeout": (float, 0.1, 7 * DAY),
    "stall": (float, 0.05, DAY),
    "stall_floor": (float, 0.05, DAY),
    "startup_grace": (float, 0.1, DAY),
    "fault_rate": (float, 0.0, 1.0),
    "seed": (int, 0, 2**63 - 1),
    "squeeze": (int, 1, 4096),
    "cpu_quota": (float, 0.01, 4096),
    "burners": (int, 0, 256),
    "chaos": (int, 0, 2**63 - 1),
    "gang": (int, 0, 10_000),
    "delays": (int, 0, 2**63 - 1),
    "switch_interval": (float, 1e-6, 1.0),
    "result_bytes": (int, 0, 2**31),
    "memory_limit": (int, 16 * 2**20, 2**50),
    "core_limit": (int, 2**20, 2**40),
}


def check_setting(name: str, value: Any, origin: str) -> Any:
    """Validate one setting against the one bound every command shares (`run`, `hunt`, `sweep`,
    `slurm`, scenario files); `origin` says where it came from for the error message."""
    try:
        return _check_setting(name, value, origin)
    except UsageError as exc:
        if exc.hint is None:
            exc.hint = (
                "gvlstress run --help lists every option with its meaning"
                if origin.startswith("-")
                else "a scenario key is a run option's name with _ for - (gvlstress run --help)"
            )
        raise


def _check_setting(name: str, value: Any, origin: str) -> Any:
    if name in _SIZES and isinstance(value, str):
        value = parse_size(value, origin)
    if name in _NUMERIC:
        kind, lo, hi = _NUMERIC[name]
        if value is None and _FIELDS[name].default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise UsageError(f"{origin}: must be a number, got {value!r}")
        if not math.isfinite(value):
            raise UsageError(f"{origin}: must be a finite number, got {value!r}")
        if kind is int and not isinstance(value, int):
            raise UsageError(f"{origin}: must be a whole number, got {value!r}")
        if not lo <= value <= hi:
            shown = f"{lo:g}..{hi:g}" if kind is float else f"{int(lo)}..{int(hi)}"
            if name in _SIZES:
                shown = f"{_human(int(lo))}..{_human(int(hi))} bytes"
            raise UsageError(f"{origin}: must be in {shown}, got {value!r}")
        return kind(value)
    if name == "kill_worker":
        if value is None:
            return None
        if value not in KILL_WORKER:
            raise UsageError(f"{origin}: must be one of {', '.join(KILL_WORKER)}, got {value!r}")
        return value
    if name == "start_method":
        if value not in START_METHODS:
            raise UsageError(f"{origin}: must be one of {', '.join(START_METHODS)}, got {value!r}")
        return value
    if name in ("warm_parent", "warm_up", "preload", "keep_core"):
        if not isinstance(value, bool):
            raise UsageError(f"{origin}: must be true or false, got {value!r}")
        return value
    if name == "thread_env":
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, (list, tuple)) or not all(
            isinstance(n, str) and n.replace("_", "A").isalnum() and not n[0].isdigit() for n in names
        ):
            raise UsageError(f"{origin}: must be environment variable names, got {value!r}")
        return tuple(names)
    if name == "inherit_env":
        if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and is_knob(k) and isinstance(v, str) for k, v in value.items()
        ):
            raise UsageError(
                f"{origin}: must map thread knobs to strings (RAYON_NUM_THREADS, OMP_*, GVL_*...), got {value!r}"
            )
        return dict(value)
    if name in ("python", "like"):
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise UsageError(f"{origin}: must be a path to a Python interpreter, got {value!r}")
        return value
    if name in ("name", "description", "target", "fault", "report_dir"):
        if not isinstance(value, str) or (name != "description" and not value):
            raise UsageError(f"{origin}: must be a non-empty string, got {value!r}")
        return value
    return value


def default(name: str) -> Any:
    """A setting's value when nothing sets it."""
    f = _FIELDS[name]
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default


def check_combinations(scenario: Scenario) -> Scenario:
    """Settings that cannot go together, refused (whichever way they were given)."""
    if scenario.python and scenario.start_method != "spawn":
        raise UsageError(
            f"--python needs start_method = spawn (got {scenario.start_method})",
            hint="only spawned workers can run another interpreter",
        )
    if scenario.warm_parent and scenario.start_method != "fork":
        raise UsageError(
            f"warm_parent needs start_method = fork (got {scenario.start_method})",
            hint="warming the pool in the parent only matters to forked workers",
        )
    if scenario.delays is not None and scenario.start_method != "spawn":
        raise UsageError(
            f"--delays needs start_method = spawn (got {scenario.start_method})",
            hint="the delay layer is preloaded when a worker's interpreter starts; forked workers never start one",
        )
    if scenario.preload and scenario.start_method != "forkserver":
        raise UsageError(
            f"preload needs start_method = forkserver (got {scenario.start_method})",
            hint="add --start-method forkserver",
        )
    if scenario.stall is not None and scenario.stall >= scenario.timeout:
        raise UsageError(
            f"stall ({scenario.stall}s) must be shorter than timeout ({scenario.timeout}s)",
            hint="a hang is detected from the stall, well before the launch timeout",
        )
    return scenario
