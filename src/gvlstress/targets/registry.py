"""Find a target by name: built-ins, ``module:callable``, or a ``gvlstress.targets`` entry point."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from gvlstress.errors import UsageError
from gvlstress.targets.base import Target
from gvlstress.targets.gvl import GenvarloaderTarget
from gvlstress.targets.native import NativeTarget
from gvlstress.targets.shapes import ShapesTarget

BUILTINS: dict[str, type[NativeTarget] | type[GenvarloaderTarget] | type[ShapesTarget]] = {
    "native": NativeTarget,
    "genvarloader": GenvarloaderTarget,
    "shapes": ShapesTarget,
}


def available() -> list[str]:
    names = set(BUILTINS)
    names.update(ep.name for ep in entry_points(group="gvlstress.targets"))
    return sorted(names)


def get_target(name: str) -> Target:
    if name in BUILTINS:
        return BUILTINS[name]()
    for ep in entry_points(group="gvlstress.targets"):
        if ep.name == name:
            factory = ep.load()
            return factory()  # type: ignore[no-any-return]
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise UsageError(f"cannot load target {name!r}: {exc}") from None
        return factory()  # type: ignore[no-any-return]
    raise UsageError(f"unknown target {name!r}", hint=f"known targets: {', '.join(available())}")
