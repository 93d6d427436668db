"""Launching and surviving waves: the watch loop (`wave`), the executor and every private
attribute of it (`pool`), per-worker bookkeeping (`slots`), when and whom to probe
(`probing`), what each worker runs (`spec`), the amplifiers, the warm-up and the fork server.

The names below are imported from `wave` when first used (PEP 562): a command that needs only
`supervisor.events` (the terminal's stop flag) does not import the wave machinery.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gvlstress.supervisor.wave import Observer, StopFlag, Wave, WorkerStatus, wave_seed, worker_spec

__all__ = ["Observer", "StopFlag", "Wave", "WorkerStatus", "wave_seed", "worker_spec"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'gvlstress.supervisor' has no attribute {name!r}")
    value = getattr(importlib.import_module("gvlstress.supervisor.wave"), name)
    globals()[name] = value
    return value
