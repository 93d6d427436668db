"""run.json: the whole parent -> wave -> worker -> thread tree, schema-versioned."""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from pathlib import Path
from typing import Any

from gvlstress import __version__
from gvlstress.model import RunResult
from gvlstress.reporters.files import write_atomic

SCHEMA = "gvlstress.run/1"


def _plain(obj: Any) -> Any:
    """Dataclasses, enums, tuples -> JSON-ready values; properties that readers need included."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
        for extra in ("parked", "n_parked", "n_futex"):
            if hasattr(type(obj), extra):
                out[extra] = getattr(obj, extra)
        return out
    if isinstance(obj, Enum):
        return obj.value
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
    for wave in data["waves"]:
        for w in wave["workers"]:
            if w["probe"]:
                for g in w["probe"]["futex_groups"]:
                    g["addr"] = hex(g["addr"])
                for t in w["probe"]["threads"]:
                    t["futex_addr"] = hex(t["futex_addr"]) if t["futex_addr"] is not None else None
    order = ["schema", "gvlstress_version", "summary", "scenario", "environment", "target", "waves"]
    return {k: data[k] for k in order} | {k: v for k, v in data.items() if k not in order}


def write(result: RunResult, run_dir: Path) -> Path:
    path = run_dir / "run.json"
    write_atomic(path, json.dumps(to_dict(result), indent=2, sort_keys=False) + "\n")
    return path
