"""run.json: the whole parent -> wave -> worker -> thread tree, schema-versioned."""

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
from gvlstress.knobs import redact_text
from gvlstress.model import InspectResult, RunResult
from gvlstress.reporters.files import write_atomic

SCHEMA = "gvlstress.run/1"


_HEX_FIELDS = ("addr", "futex_addr")


def _plain(obj: Any) -> Any:
    """Dataclasses, enums, tuples -> JSON-ready values; properties that readers need included.

    Futex addresses are written in hex, as every tool and reader shows them.
    """
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {}
        for f in dataclasses.fields(obj):
            if f.metadata.get("file_only"):  # raw dumps go to their own files
                continue
            value = getattr(obj, f.name)
            out[f.name] = hex(value) if f.name in _HEX_FIELDS and isinstance(value, int) else _plain(value)
        for extra in ("n_parked", "n_futex"):
            if hasattr(type(obj), extra):
                out[extra] = getattr(obj, extra)
        return out
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, str):  # every string leaves the process redacted by value
        return redact_text(obj)
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj


def to_dict(result: RunResult) -> dict[str, Any]:
    data = _plain(result)
    data["schema"] = SCHEMA
    data["gvlstress_version"] = __version__
    data["summary"] = _plain(result.summary)
    order = ["schema", "gvlstress_version", "summary", "scenario", "environment", "target", "waves"]
    return {k: data[k] for k in order} | {k: v for k, v in data.items() if k not in order}


INSPECT_SCHEMA = "gvlstress.inspect/1"


def write_inspect(result: InspectResult, run_dir: Path) -> Path:
    data = {"schema": INSPECT_SCHEMA, "gvlstress_version": __version__, **_plain(result)}
    path = run_dir / "inspect.json"
    write_atomic(path, json.dumps(data, indent=2) + "\n")
    return path


def write(result: RunResult, run_dir: Path) -> Path:
    path = run_dir / "run.json"
    write_atomic(path, json.dumps(to_dict(result), indent=2, sort_keys=False) + "\n")
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
            if f.name in value and not f.metadata.get("file_only")
        }
        return tp(**kwargs)
    if tp is int and isinstance(value, str) and value.startswith("0x"):
        return int(value, 16)
    if tp is float and isinstance(value, int):
        return float(value)
    if tp in (int, float, str, bool) and not isinstance(value, tp):
        raise TypeError(f"expected {tp.__name__}, got {value!r}")
    return value


def read(run_dir: Path) -> RunResult:
    """RunResult from a run directory's run.json (to render reports again)."""
    path = run_dir / "run.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})", hint="pass a run directory") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise UsageError(f"{path}: not a readable JSON file ({type(exc).__name__})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise UsageError(f"{path}: not a {SCHEMA} file")
    try:
        result = _load(RunResult, data)
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        raise UsageError(f"{path}: malformed run.json ({type(exc).__name__}: {str(exc)[:200]})") from None
    assert isinstance(result, RunResult)
    return result
