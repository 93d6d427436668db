"""Built-in rayon loader for gvlstress: a synthetic genomics loader with switchable fault modes.

The extension lives in ``gvlstress_native._native``; this facade re-exports it with types
(see ``_native.pyi``) so the harness and users never touch the private module directly.
"""

from __future__ import annotations

from gvlstress_native._native import (
    Loader,
    Prefetcher,
    __version__,
    current_num_threads,
    fault_modes,
    hanging_fault_modes,
)

__all__ = ["Loader", "Prefetcher", "__version__", "current_num_threads", "fault_modes", "hanging_fault_modes"]
