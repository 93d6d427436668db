"""A target whose import never returns, in the harness too (only a second signal gets out)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

threading.Event().wait()


def batches() -> Iterator[int]:
    return iter(())
