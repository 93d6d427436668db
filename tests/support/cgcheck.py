"""A ten-line target that records, when it is called (right after the target is imported),
which cgroups and CPUs its worker already has: the amplifiers must hold from the start."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

_seen: dict[str, Any] = {}


def batches() -> Iterator[bytes]:
    with open("/proc/self/cgroup") as fh:
        _seen["cgroups"] = fh.read().split()
    _seen["affinity"] = sorted(os.sched_getaffinity(0))
    yield b"x"


def describe() -> dict[str, Any]:
    return dict(_seen)


batches.describe = describe  # type: ignore[attr-defined]
