"""run.json: the whole parent -> wave -> worker -> thread tree, schema-versioned.

Written to scale with long runs: run.json is written once when the run starts (no waves yet,
``complete: false``) and once at its end; each wave in between is appended to ``waves.jsonl``
as it finishes, so a wave never rewrites what came before it, and a harness that dies still
leaves every finished wave. A captured worker's stacks live in their own file under
``workers/`` (beside the raw tool output) and run.json refers to it.

Writing only: the files' layout (names, schemas, capture paths) and reading them back belong to
`gvlstress.store`, which the commands that resume or combine runs read through.

Strings are not redacted here: every secret was redacted at the door it came in by.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from pathlib import Path
from typing import Any

from gvlstress import __version__
from gvlstress.model import Capture, InspectResult, RunResult, WaveResult
from gvlstress.model.shrink import ShrinkResult
from gvlstress.model.watch import WatchResult
from gvlstress.reporters.files import append_line, write_atomic
from gvlstress.store import SCHEMA, SHRINK_SCHEMA, WAVES_FILE, capture_ref

__all__ = [
    "EXTRA_PROPERTIES",
    "HEX_FIELDS",
    "SCHEMA",
    "append_wave",
    "to_dict",
    "wave_dict",
    "write",
    "write_capture",
    "write_inspect",
    "write_shrink",
    "write_watch",
]


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


def write_shrink(result: ShrinkResult, run_dir: Path) -> Path:
    """shrink.json: a shrink's whole path and state (a resumed shrink starts from it)."""
    data = {"schema": SHRINK_SCHEMA, "gvlstress_version": __version__, **_plain(result)}
    path = run_dir / "shrink.json"
    write_atomic(path, json.dumps(data, indent=2) + "\n")
    return path


def write(result: RunResult, run_dir: Path, complete: bool = True) -> Path:
    path = run_dir / "run.json"
    write_atomic(path, json.dumps(to_dict(result, run_dir, complete), indent=2, sort_keys=False) + "\n")
    return path
