"""A host profile as TOML: written for people (each key commented), read strictly.

Parse, then act: `read` turns the text into a frozen `HostProfile` or refuses it in one line
that names the file and the key (a profile of another schema version, a key this version does
not know, a value of the wrong type, a variable that is no thread knob). The profile is a door
a secret could come in by, and its `[threads]` end up in workers' environments: only thread
knobs pass, each a variable's name with a value a variable can hold. Written through the TOML
writer (`system.tomltext`): whatever a host's environment or paths hold reads back as it was.
"""

from __future__ import annotations

import dataclasses
import tomllib
import typing
from pathlib import Path
from typing import Any

from gvlstress.errors import UsageError
from gvlstress.model.profile import (
    PROFILE_SCHEMA,
    CpuProfile,
    HostProfile,
    MemoryProfile,
    ProcessProfile,
    SystemProfile,
)
from gvlstress.system import tomltext
from gvlstress.system.knobs import is_knob
from gvlstress.system.safeio import read_text_capped, write_text_atomic

MAX_PROFILE_BYTES = 1 << 20
MAX_KNOB_CHARS = 4096
"""A thread knob's value (OMP_PLACES of a 256-CPU host is about 2,000 characters)."""
HINT = "write it again with `gvlstress doctor --export` (of this gvlstress version) on that host"

_HEADER = """\
# gvlstress host profile: the conditions that shape thread scheduling on one host, read
# there by `gvlstress doctor --export`. Recreate them on another machine with
#   gvlstress run --like THIS_FILE ...
# The only part of the environment kept is the thread-count variables; values that could
# be secrets are redacted. Sizes are in bytes, quotas in cores (quota / period).
"""

_TABLES: dict[str, type] = {
    "cpu": CpuProfile,
    "memory": MemoryProfile,
    "process": ProcessProfile,
    "system": SystemProfile,
}
_MAPS: dict[str, type] = {"threads": str, "pools": int, "packages": str}
_TOP = ("schema", "host", "exported_at", "gvlstress")

_COMMENTS: dict[str, str] = {
    "cpu.count": "CPUs online (os.cpu_count)",
    "cpu.affinity": "CPUs the process may run on (sched_getaffinity): what nproc says",
    "cpu.cpuset": "the cgroup's cpuset",
    "cpu.quota": "cores of CFS quota: what the process really gets, hidden from nproc",
    "cpu.quota_file": "where the tightest quota was read",
    "memory.total": "RAM",
    "memory.swap_total": "swap on the machine",
    "memory.limit": "the cgroup's memory limit",
    "memory.swap_limit": "swap the cgroup may use beyond its limit",
    "process.start_method": "seen in use",
    "process.pid": "whose conditions these are",
}
_TABLE_COMMENTS: dict[str, str] = {
    "threads": "thread-count variables in the environment, as set",
    "pools": "threads per pool, measured in a fresh process with this environment",
    "packages": "versions in the pipeline's interpreter",
}


def render(profile: HostProfile) -> str:
    """The profile as commented TOML (keys with no value are left out)."""
    lines = [_HEADER.rstrip("\n")]
    lines += [f"{k} = {tomltext.value(getattr(profile, k))}" for k in _TOP if getattr(profile, k)]
    for table in _TABLES:
        lines += ["", f"[{table}]"]
        for f in dataclasses.fields(getattr(profile, table)):
            v = getattr(getattr(profile, table), f.name)
            if v is None or v == "":
                continue
            note = _COMMENTS.get(f"{table}.{f.name}")
            lines.append(f"{f.name} = {tomltext.value(v)}" + (f"  # {note}" if note else ""))
    for table in _MAPS:
        lines += ["", f"[{table}]  # {_TABLE_COMMENTS[table]}"]
        lines += [
            f"{tomltext.key(k)} = {tomltext.value(v)}" for k, v in sorted(getattr(profile, table).items())
        ]
    return "\n".join(lines) + "\n"


def write(profile: HostProfile, path: Path) -> None:
    """Written whole or not at all (a temporary file beside it, then renamed), and only over a
    regular file: a device, a FIFO or a directory at `path` is refused (`safeio.replaceable`)."""
    write_text_atomic(path, render(profile))


def read(path: Path, origin: str | None = None) -> HostProfile:
    """The profile in `path`, or a UsageError naming the file and what is wrong in one line."""
    where = origin or str(path)
    if not path.is_file():
        raise UsageError(
            f"{where}: no such host profile" if not path.exists() else f"{where}: not a regular file",
            hint="pass the file `gvlstress doctor --export FILE` wrote",
        )
    try:
        text = read_text_capped(path, MAX_PROFILE_BYTES)
    except OSError as exc:
        raise UsageError(f"{where}: cannot read the host profile ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{where}: not a host profile (not UTF-8 text)", hint=HINT) from None
    return parse(text, where)


def parse(text: str, where: str) -> HostProfile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{where}: not valid TOML: {exc}", hint=HINT) from None
    except RecursionError:
        raise UsageError(f"{where}: not valid TOML: nested too deeply", hint=HINT) from None
    schema = data.get("schema")
    if schema is None:
        raise UsageError(f"{where}: not a gvlstress host profile (no `schema` key)", hint=HINT)
    if schema != PROFILE_SCHEMA:
        raise UsageError(
            f"{where}: host profile schema {schema!r} is not the one this gvlstress reads ({PROFILE_SCHEMA})",
            hint=HINT,
        )
    unknown = sorted(set(data) - set(_TOP) - set(_TABLES) - set(_MAPS))
    if unknown:
        raise UsageError(f"{where}: unknown key(s) {', '.join(unknown)}", hint=HINT)
    top: dict[str, Any] = {k: _scalar(where, k, data[k], str) for k in _TOP if k in data}
    tables: dict[str, Any] = {
        name: _table(where, name, data.get(name, {}), tp) for name, tp in _TABLES.items()
    }
    maps: dict[str, Any] = {name: _map(where, name, data.get(name, {}), tp) for name, tp in _MAPS.items()}
    for name, value in maps["threads"].items():
        _knob(where, name, value)
    profile = HostProfile(**tables, **maps, **top)
    _sane(where, profile)
    return profile


def _knob(where: str, name: str, value: str) -> None:
    """A thread knob a worker's environment can be given: a knob's name that is a variable's
    name (no ``=``, no NUL), and a value of a thread setting's size without a NUL."""
    if not is_knob(name) or "=" in name or "\0" in name:
        raise UsageError(
            f"{where}: [threads] {name} is not a thread knob",
            hint="a profile carries only RAYON_NUM_THREADS, POLARS_MAX_THREADS, NUMBA_NUM_THREADS, "
            "TOKENIZERS_PARALLELISM and GVL_*, OMP_*, MKL_*, OPENBLAS_* variables",
        )
    if "\0" in value:
        raise UsageError(f"{where}: [threads] {name}: a NUL character, which no variable can hold", hint=HINT)
    if len(value) > MAX_KNOB_CHARS:
        raise UsageError(
            f"{where}: [threads] {name}: {len(value)} characters, longer than any thread setting "
            f"(at most {MAX_KNOB_CHARS})",
            hint=HINT,
        )


def _sane(where: str, p: HostProfile) -> None:
    """Numbers a host can have: a hand-edited 0 or a negative size is refused here, not in a wave."""
    checks = [
        ("[cpu] count", p.cpu.count, 1),
        ("[cpu] affinity", p.cpu.affinity, 1),
        ("[cpu] quota", p.cpu.quota, 0.001),
        ("[memory] limit", p.memory.limit, 1),
        ("[memory] swap_limit", p.memory.swap_limit, 0),
        *((f"[pools] {k}", v, 1) for k, v in p.pools.items()),
    ]
    for key, value, low in checks:
        if value is not None and not low <= value < 2**62:
            raise UsageError(f"{where}: {key}: {value!r} is not a value a host can have", hint=HINT)


def _scalar(where: str, key: str, value: Any, tp: Any) -> Any:
    args = typing.get_args(tp)
    kinds = tuple(a for a in args if a is not type(None)) if args else (tp,)
    if float in kinds and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, bool) or not isinstance(value, kinds):
        want = {int: "a whole number", float: "a number", str: "a string"}.get(kinds[0], "a value")
        raise UsageError(f"{where}: {key}: expected {want}, got {value!r}", hint=HINT)
    return value


def _table(where: str, name: str, raw: Any, tp: type) -> Any:
    if not isinstance(raw, dict):
        raise UsageError(f"{where}: [{name}] must be a table", hint=HINT)
    hints = typing.get_type_hints(tp)
    fields = {f.name: f for f in dataclasses.fields(tp)}
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise UsageError(f"{where}: unknown key(s) in [{name}]: {', '.join(unknown)}", hint=HINT)
    missing = [
        n
        for n, f in fields.items()
        if n not in raw and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise UsageError(f"{where}: [{name}] lacks {', '.join(missing)}", hint=HINT)
    return tp(**{k: _scalar(where, f"[{name}] {k}", v, hints[k]) for k, v in raw.items()})


def _map(where: str, name: str, raw: Any, tp: type) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise UsageError(f"{where}: [{name}] must be a table", hint=HINT)
    return {str(k): _scalar(where, f"[{name}] {k}", v, tp) for k, v in raw.items()}
