"""The wave's bookkeeping rules, pure and tested without processes: a finished worker's verdict
and what an amplifier that was on did not do."""

from __future__ import annotations

from typing import Any

import pytest

from gvlstress.judge.outcome import (
    EndReason,
    SlotFacts,
    WaveEnd,
    attribute_deaths,
    finished,
    stall_threshold,
    taught,
    unfinished,
)
from gvlstress.model import Verdict
from gvlstress.supervisor import amplifiers as amplify


@pytest.mark.parametrize(
    ("stalls", "batch_s_max", "stall", "floor", "verdict", "says"),
    [
        (0, 0.01, None, 2.0, Verdict.OK, None),
        (1, 3.0, None, 2.0, Verdict.SLOW, "stalled 1x past the stall threshold"),
        # a later wave under the learnt threshold: not probed, still slow (the floor decides)
        (0, 8.0, None, 1.0, Verdict.SLOW, "a batch took 8.0s, past the stall floor of 1s"),
        (0, 1.0, None, 1.0, Verdict.OK, None),
        # a fixed --stall is the floor
        (0, 3.0, 5.0, 2.0, Verdict.OK, None),
        (0, 6.0, 5.0, 2.0, Verdict.SLOW, "past the stall floor of 5s"),
    ],
)
def test_a_finished_worker_is_slow_when_a_batch_went_quiet_past_the_floor(
    stalls: int, batch_s_max: float, stall: float | None, floor: float, verdict: Verdict, says: str | None
) -> None:
    got, detail = finished(stalls, batch_s_max, stall, floor)
    assert got is verdict
    assert (detail is None) if says is None else (says in (detail or ""))


ALL_HELD: dict[str, dict[str, float]] = {
    "squeeze": {"cpus": 1, "workers": 2, "workers_pinned": 2, "threads_pinned": 10, "threads": 10},
    "cpu_quota": {"cores": 0.5, "workers_joined": 2},
    "chaos": {"seed": 1, "starvations": 9, "refused": 0, "workers_touched": 2},
    "gang": {"gang_ms": 30, "turns": 40, "workers_touched": 2},
    "burners": {"count": 2, "running_at_end": 2},
}


@pytest.mark.parametrize(
    ("change", "gap"),
    [
        ({}, None),
        ({"squeeze": {**ALL_HELD["squeeze"], "workers_pinned": 1}}, "squeeze: 1 of 2 workers"),
        ({"cpu_quota": {"cores": 0.5, "workers_joined": 0}}, "cpu_quota: 0 of 2 workers"),
        ({"chaos": {"seed": 1, "starvations": 0, "refused": 0, "workers_touched": 0}}, "chaos: no thread"),
        (
            {"chaos": {"seed": 1, "starvations": 3, "refused": 0, "workers_touched": 1}},
            "chaos: acted on 1 of 2",
        ),
        (
            {"chaos": {"seed": 1, "starvations": 3, "refused": 3, "workers_touched": 2}},
            "chaos: 3 thread stop(s) refused",
        ),
        ({"gang": {"gang_ms": 30, "turns": 0, "workers_touched": 0}}, "gang: no turn was taken"),
        ({"burners": {"count": 2, "running_at_end": 1}}, "burners: 1 of 2 still burning"),
    ],
)
def test_an_amplifier_that_did_not_hold_says_so(change: dict[str, dict[str, float]], gap: str | None) -> None:
    applied: dict[str, Any] = {**ALL_HELD, **change}
    said = amplify.gaps(applied, workers=2)
    if gap is None:
        assert said == []
    else:
        assert len(said) == 1
        assert said[0].startswith(gap)


@pytest.mark.parametrize(
    ("slot_pids", "crashed", "expected"),
    [
        ([10, 11], {}, [10, 11]),
        ([10, None, None], {99: 1}, [10, 99, None]),  # died before it reported: the first silent slot
        ([10, None], {10: -9}, [10, None]),  # a reported death stays its own
        ([None, None], {98: 1, 99: -11}, [98, 99]),
    ],
)
def test_a_worker_that_died_before_it_reported_is_blamed_not_its_siblings(
    slot_pids: list[int | None], crashed: dict[int, int], expected: list[int | None]
) -> None:
    assert attribute_deaths(slot_pids, crashed) == expected


def test_a_start_up_crash_is_a_crash_and_the_rest_are_cancelled() -> None:
    end = WaveEnd(EndReason.DONE, broken=True, crashed={99: 1})
    dead = unfinished(SlotFacts(99, 0, 0.0, 30.0, False, reported=False), end)
    other = unfinished(SlotFacts(None, 0, 0.0, 30.0, False, reported=False), end)
    assert (dead.verdict, dead.exit_code) == (Verdict.CRASH, 1)
    assert dead.detail == "worker died: exit code 1 (during start-up, before it took its task)"
    assert other.verdict is Verdict.CANCELLED


@pytest.mark.parametrize(
    ("seen", "slowest", "expected"),
    [
        (0.0, [], 0.0),
        (0.5, [(0.2, 0.0)], 0.5),  # the run's own knowledge stands
        (0.0, [(0.3, 0.0), (0.1, 0.0)], 0.3),  # unperturbed: the slowest batch
        (0.0, [(2.3, 2.0)], pytest.approx(0.3)),  # a 2 s stop inside a 0.3 s batch teaches 0.3 s
        (0.0, [(0.3, 5.0)], 0.0),  # held longer than the batch (threads stopped at once): nothing
        (0.1, [(2.3, 2.0), (0.2, 0.0)], pytest.approx(0.3)),
    ],
)
def test_what_a_batch_teaches_the_threshold_leaves_out_the_time_chaos_held_it(
    seen: float, slowest: list[tuple[float, float]], expected: float
) -> None:
    assert taught(seen, slowest) == expected


def test_a_hung_worker_under_chaos_is_probed_at_the_clean_batch_time_not_the_perturbed_one() -> None:
    # a 0.3 s loader whose slowest batch took 2.3 s because chaos held it 2 s
    perturbed = stall_threshold(None, 0.5, 30.0, taught(0.0, [(2.3, 0.0)]), True)
    discounted = stall_threshold(None, 0.5, 30.0, taught(0.0, [(2.3, 2.0)]), True)
    assert perturbed == pytest.approx(23.0)
    assert discounted == pytest.approx(3.0)
