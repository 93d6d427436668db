"""Where a scenario's settings come from, layered into one checked `Scenario`: the defaults, a
scenario file (found by name or path, read from TOML), the options a command was given, and a
host profile's conditions.

`scenario` says what a run's settings are and what each may hold; this module finds and reads
the files and applies the precedence (defaults < file < options; a profile fills in only what
was left at its default). Parse, then act: every error names where the bad value came from (the
file and key, or the option).
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gvlstress.errors import UsageError
from gvlstress.scenario import SETTABLE, Scenario, check_combinations, check_setting, default
from gvlstress.system.safeio import read_text_capped

MAX_SCENARIO_BYTES = 1 << 20
"""A scenario file is a few lines; one larger than this is refused, not read."""


def builtin_scenario_dirs() -> list[Path]:
    """Where named scenarios live: ./scenarios first, then the ones shipped with gvlstress."""
    here = Path(__file__).resolve().parent
    dirs = [Path.cwd() / "scenarios", here / "scenarios", here.parent.parent / "scenarios"]
    seen: list[Path] = []
    for d in dirs:
        if d.is_dir() and d.resolve() not in seen:
            seen.append(d.resolve())
    return seen


def find_scenario(ref: str) -> Path:
    """Resolve NAME or PATH to a scenario file."""
    path = Path(ref)
    if path.suffix == ".toml" or "/" in ref:
        if path.is_file():
            return path
        if path.exists():
            raise UsageError(
                f"{ref}: cannot read scenario file (not a regular file)", hint="pass a .toml file"
            )
        raise UsageError(f"scenario file not found: {ref}", hint="check the path")
    for d in builtin_scenario_dirs():
        candidate = d / f"{ref}.toml"
        if candidate.is_file():
            return candidate
    known = ", ".join(sorted(p.stem for p in list_scenarios())) or "none"
    raise UsageError(f"unknown scenario {ref!r}", hint=f"known scenarios: {known}")


def list_scenarios() -> list[Path]:
    """Every scenario file, first directory winning on a name clash."""
    found: dict[str, Path] = {}
    for d in builtin_scenario_dirs():
        for p in sorted(d.glob("*.toml")):
            found.setdefault(p.stem, p)
    return [found[k] for k in sorted(found)]


def read_scenario_file(path: Path) -> dict[str, Any]:
    """Parse a TOML scenario into raw settings; errors name the file."""
    try:
        data = tomllib.loads(read_text_capped(path, MAX_SCENARIO_BYTES))
    except OSError as exc:
        raise UsageError(f"{path}: cannot read scenario file ({exc.strerror})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise UsageError(f"{path}: not valid TOML: nested too deeply") from None
    scenario = data.pop("scenario", None)
    target = data.pop("target", {})
    if data:
        raise UsageError(
            f"{path}: unknown table(s) {', '.join(sorted(data))}",
            hint="a scenario file has a [scenario] table and an optional [target] table",
        )
    if not isinstance(scenario, dict):
        raise UsageError(f"{path}: missing [scenario] table")
    if not isinstance(target, dict):
        raise UsageError(f"{path}: [target] must be a table")
    unknown = set(scenario) - SETTABLE
    if unknown:
        raise UsageError(
            f"{path}: unknown key(s) in [scenario]: {', '.join(sorted(unknown))}",
            hint=f"known keys: {', '.join(sorted(SETTABLE))}",
        )
    raw: dict[str, Any] = dict(scenario)
    raw.setdefault("name", path.stem)
    if isinstance(raw.get("like"), str) and raw["like"] and not Path(raw["like"]).is_absolute():
        raw["like"] = str(path.parent / raw["like"])  # a profile beside the scenario that names it
    raw["options"] = target
    raw["source"] = str(path)
    return raw


def resolve(
    scenario_ref: str | None,
    overrides: Mapping[str, Any],
    override_origin: Mapping[str, str] | None = None,
) -> Scenario:
    """Build the Scenario: defaults < scenario file < overrides (e.g. CLI options that were given).

    `overrides` holds only settings the user gave; `override_origin` maps a setting to how it
    was given (e.g. ``--workers``) for error messages.
    """
    raw: dict[str, Any] = {}
    origins: dict[str, str] = {}
    if scenario_ref is not None:
        path = find_scenario(scenario_ref)
        raw = read_scenario_file(path)
        origins = {k: f"{path} [scenario] {k}" for k in raw}
    for key, value in overrides.items():
        if key not in SETTABLE and key != "options":
            raise UsageError(f"unknown setting {key!r}")
        raw[key] = value
        origins[key] = (override_origin or {}).get(key, f"override {key}")
    checked: dict[str, Any] = {}
    for key, value in raw.items():
        checked[key] = value if key in ("options", "source") else check_setting(key, value, origins[key])
    return check_combinations(Scenario(**checked))


def with_settings(
    scenario: Scenario, settings: Mapping[str, tuple[Any, str]]
) -> tuple[Scenario, dict[str, Any]]:
    """`scenario` with `settings` (value, origin) filled in where it left a setting at its default
    (a host profile's conditions: the run's own options and scenario keys win); a mapping merges,
    the scenario's keys winning. Each value is checked as a scenario key is, its origin named.
    Returns the new scenario and the settings it kept of its own instead."""
    changed: dict[str, Any] = {}
    kept: dict[str, Any] = {}
    for name, (value, origin) in settings.items():
        current = getattr(scenario, name)
        checked = check_setting(name, value, origin)
        if isinstance(current, Mapping):
            kept |= (
                {name: {k: current[k] for k in checked if k in current}}
                if set(checked) & set(current)
                else {}
            )
            changed[name] = {**checked, **current}
        elif current != default(name):
            kept[name] = current
        else:
            changed[name] = checked
    return check_combinations(dataclasses.replace(scenario, **changed)), kept


def describe(path: Path) -> str:
    """One line for `gvlstress scenarios`: the description, or why the file is broken."""
    try:
        raw = read_scenario_file(path)
    except UsageError as exc:
        return f"(invalid: {exc.message})"
    return str(raw.get("description", "")) or "(no description)"
