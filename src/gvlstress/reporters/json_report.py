"""run.json: the whole parent -> wave -> worker -> thread tree, schema-versioned.

Written to scale with long runs: run.json is written once when the run starts (no waves yet,
``complete: false``) and once at its end; each wave in between is appended to ``waves.jsonl``
as it finishes, so a wave never rewrites what came before it, and a harness that dies still
leaves every finished wave. A captured worker's stacks live in their own file under
``workers/`` (beside the raw tool output) and run.json refers to it.

Strings are not redacted here: every secret was redacted at the door it came in by.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from enum import Enum
from pathlib import Path
from typing import Any

from gvlstress import __version__
from gvlstress.errors import UsageError
from gvlstress.judge.audit import audit
from gvlstress.model import Capture, InspectResult, RunResult, WaveResult, WorkerOutcome
from gvlstress.model.shrink import ShrinkResult
from gvlstress.model.watch import WatchResult
from gvlstress.reporters.files import append_line, write_atomic
from gvlstress.system.safeio import read_bytes_capped, read_text_capped

SCHEMA = "gvlstress.run/3"
"""/2: captures moved out to workers/*/capture.json; waves appended to waves.jsonl; `complete`.
/3: the thread-cap `audit` and why the run `stopped` are stored; a target's own facts sit under
`target.facts`. Older runs are read too (their audit is worked out as they are read)."""
READABLE = ("gvlstress.run/1", "gvlstress.run/2", SCHEMA)
WAVES_FILE = "waves.jsonl"
MAX_JSON_BYTES = 256 * 1024 * 1024
"""Larger run.json or capture files are refused, not read (a huge file cannot stall a reader)."""


HEX_FIELDS = ("addr", "futex_addr")
"""Fields written as hex strings (futex addresses, as every tool and reader shows them)."""
EXTRA_PROPERTIES = ("n_parked", "n_futex")
"""Derived properties written beside a type's fields, for readers."""


_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}
_EXTRAS: dict[type, tuple[str, ...]] = {}


def _fields(tp: type) -> tuple[tuple[str, bool], ...]:
    """(name, written in hex) for a dataclass's fields that go into JSON, cached per type."""
    got = _FIELDS.get(tp)
    if got is None:
        got = tuple(
            (f.name, f.name in HEX_FIELDS)
            for f in dataclasses.fields(tp)
            if not f.metadata.get("file_only") and not f.metadata.get("local")
        )
        _FIELDS[tp] = got
        _EXTRAS[tp] = tuple(x for x in EXTRA_PROPERTIES if hasattr(tp, x))
    return got


def _plain(obj: Any) -> Any:
    """Dataclasses, enums, tuples -> JSON-ready values; properties that readers need included.

    Futex addresses are written in hex, as every tool and reader shows them.
    """
    if obj is None or (isinstance(obj, (str, int, float)) and not isinstance(obj, Enum)):
        return obj
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        tp = type(obj)
        out = {}
        for name, as_hex in _fields(tp):
            value = getattr(obj, name)
            out[name] = hex(value) if as_hex and isinstance(value, int) else _plain(value)
        for extra in _EXTRAS[tp]:
            out[extra] = getattr(obj, extra)
        return out
    return obj


def capture_dir(wave: WaveResult, w: WorkerOutcome) -> str:
    """Where a captured worker's files go, relative to the run directory."""
    return f"workers/wave{wave.index + 1}-slot{w.slot}-pid{w.pid}"


def capture_ref(wave: WaveResult, w: WorkerOutcome) -> str:
    return f"{capture_dir(wave, w)}/capture.json"


def error_ref(wave: WaveResult, w: WorkerOutcome) -> str:
    """Where an ``error`` worker's traceback is kept whole (as the worker recorded it)."""
    return f"{capture_dir(wave, w)}/error.txt"


def write_capture(capture: Capture, path: Path) -> None:
    """A worker's merged three-view capture, in its own file (run.json refers to it)."""
    write_atomic(path, json.dumps(_plain(capture), separators=(",", ":")) + "\n")


def wave_dict(wave: WaveResult, run_dir: Path | None = None) -> dict[str, Any]:
    """One wave as run.json and waves.jsonl hold it: captures by reference (written to their
    file under `run_dir` if it is not there yet, e.g. after a merge renumbered the wave)."""
    data: dict[str, Any] = _plain(wave)
    for w, out in zip(wave.workers, data["workers"], strict=True):
        if w.capture is None:
            continue
        ref = capture_ref(wave, w)
        if run_dir is not None and not (run_dir / ref).is_file():
            write_capture(w.capture, run_dir / ref)
        out["capture"] = ref
    return data


def to_dict(result: RunResult, run_dir: Path | None = None, complete: bool = True) -> dict[str, Any]:
    data = _plain(dataclasses.replace(result, waves=()))
    data["waves"] = [wave_dict(w, run_dir) for w in result.waves]
    data["schema"] = SCHEMA
    data["gvlstress_version"] = __version__
    data["complete"] = complete
    data["summary"] = _plain(result.summary)
    order = [
        "schema",
        "gvlstress_version",
        "complete",
        "summary",
        "scenario",
        "environment",
        "target",
        "waves",
    ]
    return {k: data[k] for k in order} | {k: v for k, v in data.items() if k not in order}


def append_wave(wave: WaveResult, run_dir: Path) -> None:
    """Add one finished wave to waves.jsonl (nothing written before it is touched)."""
    append_line(run_dir / WAVES_FILE, json.dumps(wave_dict(wave, run_dir)))


INSPECT_SCHEMA = "gvlstress.inspect/1"


def write_inspect(result: InspectResult, run_dir: Path) -> Path:
    data = {"schema": INSPECT_SCHEMA, "gvlstress_version": __version__, **_plain(result)}
    path = run_dir / "inspect.json"
    write_atomic(path, json.dumps(data, indent=2) + "\n")
    return path


WATCH_SCHEMA = "gvlstress.watch/1"


def write_watch(result: WatchResult, run_dir: Path) -> Path:
    """watch.json: a whole watch (its quiet spells, the hang as inspect reports it, how it ended)."""
    data = {"schema": WATCH_SCHEMA, "gvlstress_version": __version__, **_plain(result)}
    path = run_dir / "watch.json"
    write_atomic(path, json.dumps(data, indent=2) + "\n")
    return path


SHRINK_SCHEMA = "gvlstress.shrink/1"


def write_shrink(result: ShrinkResult, run_dir: Path) -> Path:
    """shrink.json: a shrink's whole path and state (a resumed shrink starts from it)."""
    data = {"schema": SHRINK_SCHEMA, "gvlstress_version": __version__, **_plain(result)}
    path = run_dir / "shrink.json"
    write_atomic(path, json.dumps(data, indent=2) + "\n")
    return path


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


def write(result: RunResult, run_dir: Path, complete: bool = True) -> Path:
    path = run_dir / "run.json"
    write_atomic(path, json.dumps(to_dict(result, run_dir, complete), indent=2, sort_keys=False) + "\n")
    return path


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


def read(run_dir: Path) -> RunResult:
    """RunResult from a run directory's run.json (to render reports again); the waves of a run
    whose harness died come from waves.jsonl."""
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
    if not stored_audit:  # written before the audit was kept: work it out once, as it is read
        result = dataclasses.replace(result, audit=audit(result))
    return result
