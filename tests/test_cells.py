"""The cells both human views share (`reporters.cells`): what a wave's amplifiers really did, and
a rate ratio with its interval, each as one table cell."""

from __future__ import annotations

from typing import Any

import pytest

from gvlstress.reporters.cells import amplifier_cell, ratio_cell

INF = float("inf")


@pytest.mark.parametrize(
    ("amp", "cell"),
    [
        ({}, "-"),
        ({"squeeze": {"cpus": 1, "workers_pinned": 3, "workers": 4}}, "squeeze 1 CPU (3/4 workers pinned)"),
        ({"cpu_quota": {"cores": 0.5, "workers_joined": 2}}, "quota 0.5 cores (2 workers in it)"),
        ({"burners": {"count": 1}}, "1 burner"),
        (
            {"chaos": {"starvations": 2, "main_thread_starvations": 1, "starved_s": 0.25}},
            "chaos 2 thread stops (1 of a main thread, 0.2 s stopped)",
        ),
        ({"chaos": {"starvations": 4}}, "chaos 4 starvations, 0 stops"),
        ({"gang": {"gang_ms": 5, "turns": 1}}, "gang 5 ms slices (1 turn)"),
        (
            {"delays": {"delays": 3, "workers_loaded": 2, "workers": 2}},
            "delay layer: 3 delays in 2/2 workers",
        ),
        (
            {
                "delays": {
                    "delays": 9,
                    "workers_loaded": 1,
                    "workers": 2,
                    "sites": ["a", "b"],
                    "hot_delays": 7,
                    "learned": ["lock_a", "lock_b"],
                }
            },
            "delay layer: 9 delays in 1/2 workers, 7 at 2 learned sites; learned lock_a, lock_b",
        ),
        ({"switch_interval": {"seconds": 5e-6}}, "GIL switch every 5 us"),
        ({"memory_limit": {"bytes": 512 * 2**20, "oom_kills": None}}, "memory 512 MiB (0 OOM kills)"),
        (
            {"kill_worker": {"when": "mid-batch", "killed": {"slot": 1, "batches": 3}}},
            "kill-worker mid-batch: slot 1 at batch 3",
        ),
        ({"kill_worker": {"when": "start", "killed": None}}, "kill-worker start: none"),
        (
            {"burners": {"count": 2}, "gang": {"gang_ms": 10, "turns": 3}},
            "2 burners; gang 10 ms slices (3 turns)",
        ),
    ],
)
def test_a_waves_amplifiers_in_one_cell(amp: dict[str, Any], cell: str) -> None:
    assert amplifier_cell(amp) == cell


@pytest.mark.parametrize(
    ("ratio", "cell"),
    [(None, "-"), ((2.0, 1.04, 3.96), "2.0x [1.0-4.0]"), ((INF, 3.0, INF), "infx [3.0-inf]")],
)
def test_a_rate_ratio_with_its_interval(ratio: tuple[float, float, float] | None, cell: str) -> None:
    assert ratio_cell(ratio) == cell
