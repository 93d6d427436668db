"""Find a target by name: built-ins, ``module:callable``, or a ``gvlstress.targets`` entry point.

``module:attr`` is the Target form when ``attr`` is a class or an object with ``prepare()``
(a class is instantiated), and the ten-line form (`targets.callable`) for any other callable.
The current directory is importable, as with ``python -m`` (spawned workers inherit sys.path).
"""

from __future__ import annotations

import importlib
import os
import sys
from importlib.metadata import entry_points
from typing import Any

from gvlstress.errors import GvlstressError, StopNow, UsageError
from gvlstress.system.failure import user_error
from gvlstress.targets.base import LoaderFacts, Target, loader_of
from gvlstress.targets.callable import CallableTarget
from gvlstress.targets.gvl_support import GenvarloaderTarget
from gvlstress.targets.native import NativeTarget
from gvlstress.targets.program import ProgramTarget
from gvlstress.targets.races import RaceTarget
from gvlstress.targets.shapes import ShapesTarget

BUILTINS: dict[
    str,
    type[NativeTarget]
    | type[GenvarloaderTarget]
    | type[ShapesTarget]
    | type[RaceTarget]
    | type[ProgramTarget],
] = {
    "native": NativeTarget,
    "genvarloader": GenvarloaderTarget,
    "shapes": ShapesTarget,
    "race": RaceTarget,
    "program": ProgramTarget,
}
CONTRACT = "MODULE:CALLABLE returning an iterable of batches, or MODULE:CLASS with prepare()"


def available() -> list[str]:
    names = set(BUILTINS)
    names.update(ep.name for ep in entry_points(group="gvlstress.targets"))
    return sorted(names)


def builtin_loaders() -> tuple[LoaderFacts, ...]:
    """The records of the built-in targets that have one (``doctor --export`` measures their
    pools and keeps their stacks' versions)."""
    records = (loader_of(kind()) for kind in BUILTINS.values())
    return tuple(r for r in records if r != LoaderFacts())


def recorded(name: str) -> LoaderFacts | None:
    """A built-in target's record by its name (None for any other name): for run.json files
    written before the record was kept in them. Nothing is imported for another name."""
    return loader_of(BUILTINS[name]()) if name in BUILTINS else None


def loader_facts(name: str) -> LoaderFacts:
    """The record of target `name`, as `get_target` finds it."""
    return recorded(name) or loader_of(get_target(name))


def _as_target(obj: Any, name: str) -> Target:
    if isinstance(obj, type):
        try:
            obj = obj()
        except (GvlstressError, StopNow):
            raise
        except BaseException as exc:
            raise user_error(f"--target {name}: creating the target", exc) from None
    if not callable(getattr(obj, "prepare", None)):
        raise UsageError(f"--target {name} is not a target", hint=f"expected {CONTRACT}")
    if not isinstance(getattr(obj, "name", None), str):
        obj.name = name
    return obj  # type: ignore[no-any-return]


def get_target(name: str) -> Target:
    if name in BUILTINS:
        return BUILTINS[name]()
    for ep in entry_points(group="gvlstress.targets"):
        if ep.name == name:
            try:
                factory = ep.load()
                return _as_target(factory() if not isinstance(factory, type) else factory, name)
            except (GvlstressError, StopNow):
                raise
            except BaseException as exc:
                raise user_error(f"loading target {name!r} (entry point {ep.value})", exc) from None
    if ":" not in name:
        raise UsageError(
            f"unknown target {name!r}", hint=f"known targets: {', '.join(available())}; or {CONTRACT}"
        )
    module, _, attr = name.partition(":")
    if not module or not attr or not all(p.isidentifier() for p in (*module.split("."), *attr.split("."))):
        raise UsageError(f"--target {name!r}: not MODULE:CALLABLE", hint=f"expected {CONTRACT}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` does; spawned workers inherit it
    try:
        obj: Any = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module != exc.name and not module.startswith(exc.name + "."):
            raise UsageError(  # the module was found; something it imports was not
                f"--target {name}: importing {module!r} failed: {exc}",
                hint=f"install {exc.name.split('.')[0]!r} where the workers run (pip install it)",
            ) from None
        raise UsageError(
            f"--target {name}: cannot import {module!r} ({exc})",
            hint="is it on sys.path or in this directory?",
        ) from None
    except (GvlstressError, StopNow):
        raise
    except BaseException as exc:  # the user's module failed (or exited) while it was imported
        raise user_error(f"--target {name}: importing module {module!r}", exc) from None
    try:
        for part in attr.split("."):
            obj = getattr(obj, part)
    except AttributeError:
        raise UsageError(f"--target {name}: module {module!r} has no {attr!r}") from None
    if isinstance(obj, type) or callable(getattr(obj, "prepare", None)):
        return _as_target(obj, name)
    if not callable(obj):
        raise UsageError(
            f"--target {name} is a {type(obj).__name__}, not callable", hint=f"expected {CONTRACT}"
        )
    return CallableTarget(name, obj)
