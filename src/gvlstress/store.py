"""A run directory read back as state: what `shrink` resumes from, what `merge`, `compare` and
`plan` combine, what `report` renders again. The files' layout (names, schemas, where a
worker's capture goes) is here too, since the writer (`reporters.json_report`, which only
formats and writes) and this reader must agree on it.

Reading is strict at the door: a file that is not ours, too large, not UTF-8 or malformed is
refused in one line (exit 2), never half-read. Runs of older schemas are read too: their audit is
worked out as they are read, and a run written before the loader's record was kept gets the
record of its built-in target, when the caller passes a way to find it (`read`'s `loaders`).
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any

from gvlstress.errors import UsageError
from gvlstress.judge.audit import audit
from gvlstress.model import LoaderFacts, RunResult, WaveResult, WorkerOutcome
from gvlstress.model.shrink import ShrinkResult
from gvlstress.system.safeio import read_bytes_capped, read_text_capped

SCHEMA = "gvlstress.run/3"
"""/2: captures moved out to workers/*/capture.json; waves appended to waves.jsonl; `complete`.
/3: the thread-cap `audit` and why the run `stopped` are stored; a target's own facts sit under
`target.facts` (and, later, its loader's record under `target.loader`: an added key). Older runs
are read too (their audit is worked out as they are read)."""
READABLE = ("gvlstress.run/1", "gvlstress.run/2", SCHEMA)
WAVES_FILE = "waves.jsonl"
SHRINK_SCHEMA = "gvlstress.shrink/1"
MAX_JSON_BYTES = 256 * 1024 * 1024
"""Larger run.json or capture files are refused, not read (a huge file cannot stall a reader)."""


def capture_dir(wave: WaveResult, w: WorkerOutcome) -> str:
    """Where a captured worker's files go, relative to the run directory."""
    return f"workers/wave{wave.index + 1}-slot{w.slot}-pid{w.pid}"


def capture_ref(wave: WaveResult, w: WorkerOutcome) -> str:
    return f"{capture_dir(wave, w)}/capture.json"


def error_ref(wave: WaveResult, w: WorkerOutcome) -> str:
    """Where an ``error`` worker's traceback is kept whole (as the worker recorded it)."""
    return f"{capture_dir(wave, w)}/error.txt"


def read(run_dir: Path, loaders: Callable[[str], LoaderFacts | None] | None = None) -> RunResult:
    """RunResult from a run directory's run.json (to render reports again); the waves of a run
    whose harness died come from waves.jsonl. `loaders`: a target's record by its name, for a
    run.json written before the record was kept in it (None: such a run keeps the defaults)."""
    path = run_dir / "run.json"
    data = _read_json(path)
    if not isinstance(data, dict) or data.get("schema") not in READABLE:
        raise UsageError(f"{path}: not a {SCHEMA} file")
    stored_audit = "audit" in data
    if data.get("complete") is False:
        logged = _waves_from_log(run_dir)
        if len(logged) > len(data.get("waves") or []):
            data["waves"] = logged
            data["warnings"] = [
                *(data.get("warnings") or []),
                f"the harness ended before finishing this run: {len(logged)} wave(s) read from {WAVES_FILE}",
            ]
    _resolve_captures(run_dir, data.get("waves"))
    try:
        result = _load(RunResult, data)
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        raise UsageError(f"{path}: malformed run.json ({type(exc).__name__}: {str(exc)[:200]})") from None
    assert isinstance(result, RunResult)
    if isinstance(data.get("target"), dict) and "loader" not in data["target"]:  # written before it was kept
        record = loaders(result.target.name) if loaders is not None else None
        if record is not None:
            result = dataclasses.replace(result, target=dataclasses.replace(result.target, loader=record))
    if not stored_audit:  # written before the audit was kept: work it out once, as it is read
        result = dataclasses.replace(result, audit=audit(result))
    return result


def read_shrink(run_dir: Path) -> ShrinkResult | None:
    """The shrink.json of `run_dir`, None when it has none."""
    path = run_dir / "shrink.json"
    if not path.exists():
        return None
    data = _read_json(path)
    if not isinstance(data, dict) or data.get("schema") != SHRINK_SCHEMA:
        raise UsageError(f"{path}: not a {SHRINK_SCHEMA} file", hint="add --force to start the shrink over")
    try:
        result = _load(ShrinkResult, data)
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        raise UsageError(
            f"{path}: malformed ({type(exc).__name__})", hint="add --force to start over"
        ) from None
    assert isinstance(result, ShrinkResult)
    return result


def _load(tp: Any, value: Any) -> Any:
    """Rebuild a value of type `tp` from its JSON form (dataclasses, enums, tuples, unions)."""
    origin = typing.get_origin(tp)
    if value is None:
        if tp is Any or (origin in (typing.Union, types.UnionType) and type(None) in typing.get_args(tp)):
            return None
        raise TypeError(f"null where {getattr(tp, '__name__', tp)} is required")
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            if arg is type(None):
                continue
            try:
                return _load(arg, value)
            except (TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"cannot read {value!r} as {tp}")
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) != 2 or args[1] is not Ellipsis:  # a fixed shape: (fd, target), say
            if not isinstance(value, list) or len(value) != len(args):
                raise TypeError(f"expected {len(args)} items for {tp}, got {value!r}")
            return tuple(_load(a, v) for a, v in zip(args, value, strict=True))
        if args[0] is str and isinstance(value, list) and all(type(v) is str for v in value):
            return tuple(value)  # warnings, stderr lines: 300,000 of them are read at once
        return tuple(_load(args[0], v) for v in value)
    if origin is dict:
        return dict(value)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(value)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise TypeError(f"expected an object for {tp.__name__}")
        hints = typing.get_type_hints(tp)
        kwargs = {
            f.name: _load(hints[f.name], value[f.name])
            for f in dataclasses.fields(tp)
            if f.name in value and not f.metadata.get("file_only") and not f.metadata.get("local")
        }
        return tp(**kwargs)
    if tp is int and isinstance(value, str) and value.startswith("0x"):
        return int(value, 16)
    if tp is float and isinstance(value, int):
        return float(value)
    if tp in (int, float, str, bool) and not isinstance(value, tp):
        raise TypeError(f"expected {tp.__name__}, got {value!r}")
    return value


def _read_json(path: Path) -> Any:
    try:
        text = read_text_capped(path, MAX_JSON_BYTES)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})", hint="pass a run directory") from None
    except UnicodeDecodeError as exc:  # random bytes, UTF-16: gvlstress writes UTF-8 (ASCII) only
        raise UsageError(
            f"{path}: not a gvlstress JSON file (not UTF-8: byte {exc.start})",
            hint="pass a run directory gvlstress wrote, as it wrote it",
        ) from None
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError, ValueError) as exc:
        raise UsageError(f"{path}: not a readable JSON file ({type(exc).__name__})") from None


def _waves_from_log(run_dir: Path) -> list[Any]:
    """The waves a run appended as it went (a harness that died never wrote the final run.json)."""
    path = run_dir / WAVES_FILE
    if not path.is_file():
        return []
    out = []
    try:
        data = read_bytes_capped(path, MAX_JSON_BYTES)
    except OSError:
        return []
    for line in data.splitlines():
        try:
            out.append(json.loads(line.decode("utf-8")))
        except (json.JSONDecodeError, RecursionError, ValueError):  # UnicodeDecodeError too
            break  # a line cut by the harness's death (or not ours) ends the log
    return out


def _resolve_captures(run_dir: Path, waves: Any) -> None:
    """Replace each capture reference by the capture it names (None where the file is gone)."""
    if not isinstance(waves, list):
        return
    for wave in waves:
        for w in wave.get("workers", []) if isinstance(wave, dict) else []:
            ref = w.get("capture") if isinstance(w, dict) else None
            if isinstance(ref, str):
                target = (run_dir / ref).resolve()
                inside = run_dir.resolve() in target.parents
                try:
                    w["capture"] = _read_json(target) if inside and target.is_file() else None
                except UsageError:
                    w["capture"] = None
