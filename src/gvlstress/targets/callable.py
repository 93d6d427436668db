"""The ten-line target contract: ``--target MODULE:CALLABLE``.

CALLABLE is called in each worker with the ``-o`` options as keyword arguments (plus ``seed``
and ``slot`` when its signature names them) and returns an iterable; each item is one batch,
and an iterable that ends early ends that worker's share of the wave. Optional attributes on
the callable: ``thread_env`` (variables ``--rayon N`` sets too, e.g. ``("POLARS_MAX_THREADS",)``),
``describe()`` (facts for run.json, e.g. ``{"rayon_threads": 16}``; the iterable may have its own
``describe()`` instead), ``warm()`` (what ``--warm-parent`` and the warm-up run instead of one batch).

Supervisor half (`CallableTarget`) checks the shape without calling it (calling it here would
start the loader's pools in the parent); worker half (`open_worker`) is stdlib-only.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gvlstress.scenario import Scenario
    from gvlstress.targets.base import TargetPlan


class TargetShapeError(TypeError):
    """The callable did not return an iterable of batches (a usage error, not a loader bug)."""


def _call(fn: Callable[..., Any], kwargs: dict[str, Any], seed: int, slot: int) -> Any:
    params = inspect.signature(fn).parameters
    extra = {k: v for k, v in (("seed", seed), ("slot", slot)) if k in params and k not in kwargs}
    return fn(**kwargs, **extra)


class _IterSession:
    """The worker loop's session over any iterable."""

    def __init__(self, ref: str, fn: Callable[..., Any], made: Any) -> None:
        self.fn = fn
        self.made = made
        if isinstance(made, (str, bytes, bytearray)) or not hasattr(made, "__iter__"):
            raise TargetShapeError(
                f"--target {ref} returned {type(made).__name__}, expected an iterable of batches "
                "(a generator, a list, a DataLoader...)"
            )
        self.it: Iterator[Any] = iter(made)

    def next_batch(self) -> object:
        return next(self.it)  # StopIteration ends the worker's iterations

    def warm(self) -> None:
        hook = getattr(self.fn, "warm", None)
        if callable(hook):
            hook()
        else:
            self.next_batch()

    def describe(self) -> dict[str, Any]:
        for owner in (self.made, self.fn):
            hook = getattr(owner, "describe", None)
            if callable(hook):
                info = hook()
                return dict(info) if isinstance(info, dict) else {"describe": repr(info)}
        return {}


def open_worker(options: dict[str, Any], seed: int, slot: int) -> _IterSession:
    """Worker half: import the callable, call it with the options, wrap what it returns."""
    from gvlstress.worker import load_entry

    ref = str(options["target"])
    fn = load_entry(ref)
    return _IterSession(ref, fn, _call(fn, dict(options["kwargs"]), seed, slot))


class CallableTarget:
    """Supervisor half: validate the callable's shape and the options against its signature."""

    def __init__(self, ref: str, fn: Callable[..., Any]) -> None:
        self.name = ref
        self.ref = ref
        self.fn = fn

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        from gvlstress.errors import UsageError
        from gvlstress.targets.base import TargetPlan

        kwargs = dict(scenario.options)
        try:
            json.dumps(kwargs)
        except TypeError as exc:
            raise UsageError(f"{scenario.source} [target]: options must be plain values ({exc})") from None
        try:
            sig = inspect.signature(self.fn)
        except (TypeError, ValueError):
            sig = None  # a builtin without a signature: its call in the worker will tell
        if sig is not None:
            params = sig.parameters
            extra = {k: 0 for k in ("seed", "slot") if k in params and k not in kwargs}
            try:
                sig.bind(**kwargs, **extra)
            except TypeError as exc:
                takes = ", ".join(p for p in params if p not in ("seed", "slot")) or "no options"
                raise UsageError(
                    f"--target {self.ref} cannot be called with {_opts(kwargs)}: {exc}",
                    hint=f"it takes: {takes} (pass them with -o KEY=VALUE)",
                ) from None
        names = getattr(self.fn, "thread_env", ())
        if isinstance(names, str) or not all(isinstance(n, str) and n for n in names):
            raise UsageError(
                f"--target {self.ref}: thread_env must be a tuple of variable names, got {names!r}"
            )
        if scenario.fault != "none":
            raise UsageError(f"--target {self.ref} has no fault modes", hint="faults are for --target native")
        return TargetPlan(
            entry="gvlstress.targets.callable:open_worker",
            options={"target": self.ref, "kwargs": kwargs},
            rayon_env=tuple(dict.fromkeys(("RAYON_NUM_THREADS", *names))),
            facts={"contract": "callable", "callable": self.ref},
            preload=(self.ref.partition(":")[0],),
        )


def _opts(kwargs: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in kwargs.items()) or "no options"
