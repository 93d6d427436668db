"""A progress board in shared memory: one row of doubles per worker slot.

Workers write their own row after every batch (a few stores, no lock, no syscall); the
supervisor reads all rows on each poll. Each field is an aligned 8-byte double, so a reader sees
every field whole; rows are monitoring data and need no cross-field consistency. Times are
``time.monotonic()``, which is one system-wide clock on Linux, so they compare across processes.
Stdlib only: workers import this.
"""

from __future__ import annotations

import time
from enum import IntEnum
from multiprocessing.sharedctypes import RawArray
from typing import Any, NamedTuple


class Phase(IntEnum):
    EMPTY = 0
    STARTED = 1
    IMPORTED = 2
    ITERATING = 3
    DONE = 4
    FAILED = 5


_PID, _ITER, _BEAT, _PHASE, _BATCH_MAX, _THREADS, _RAYON, _STARTED = range(8)
_WIDTH = 8


class SlotState(NamedTuple):
    """One row as read (a tuple: workers import this module, and dataclasses is costly)."""

    pid: int | None
    iterations: int
    last_beat: float | None
    phase: Phase
    batch_s_max: float
    threads: int
    rayon_threads: int | None
    started: float | None


class Board:
    """N rows of progress, shared between the supervisor and its spawned workers."""

    def __init__(self, raw: Any, slots: int) -> None:
        self.raw = raw
        self.slots = slots

    @classmethod
    def create(cls, slots: int) -> Board:
        return cls(RawArray("d", slots * _WIDTH), slots)

    @classmethod
    def attach(cls, raw: Any) -> Board:
        return cls(raw, len(raw) // _WIDTH)

    def reset(self) -> None:
        for i in range(len(self.raw)):
            self.raw[i] = 0.0

    def start(self, slot: int, pid: int) -> None:
        base = slot * _WIDTH
        now = time.monotonic()
        self.raw[base + _PID] = float(pid)
        self.raw[base + _STARTED] = now
        self.raw[base + _PHASE] = float(Phase.STARTED)
        self.raw[base + _BEAT] = now

    def phase(self, slot: int, phase: Phase, rayon_threads: int | None = None) -> None:
        base = slot * _WIDTH
        if rayon_threads is not None:
            self.raw[base + _RAYON] = float(rayon_threads)
        self.raw[base + _PHASE] = float(phase)
        self.raw[base + _BEAT] = time.monotonic()

    def beat(self, slot: int, iterations: int, batch_s: float, threads: int) -> None:
        """After every batch: the hot path, a handful of stores."""
        base = slot * _WIDTH
        raw = self.raw
        raw[base + _ITER] = float(iterations)
        if batch_s > raw[base + _BATCH_MAX]:
            raw[base + _BATCH_MAX] = batch_s
        if threads > raw[base + _THREADS]:
            raw[base + _THREADS] = float(threads)
        raw[base + _BEAT] = time.monotonic()

    def read(self, slot: int) -> SlotState:
        row = self.raw[slot * _WIDTH : (slot + 1) * _WIDTH]
        pid = int(row[_PID])
        return SlotState(
            pid=pid or None,
            iterations=int(row[_ITER]),
            last_beat=row[_BEAT] or None,
            phase=Phase(int(row[_PHASE])),
            batch_s_max=row[_BATCH_MAX],
            threads=int(row[_THREADS]),
            rayon_threads=int(row[_RAYON]) or None,
            started=row[_STARTED] or None,
        )
