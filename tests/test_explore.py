"""`hunt --explore`: the settings offered, Thompson picking, the ranking (pure), and a live hunt."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

import builders
from conftest import run_cli
from gvlstress.campaign import explore
from gvlstress.model import Verdict, WaveResult
from gvlstress.scenario import Scenario


def wave(setting: str, hung: bool, cpu_s: float, batches: int) -> WaveResult:
    verdict = Verdict.DEADLOCK if hung else Verdict.OK
    one = builders.worker(verdict, pid=100, iterations=batches, cpu_s=cpu_s, batch_s_max=0.01)
    return builders.wave(0, verdict, (one,), wall_s=cpu_s, setting=setting)


@pytest.mark.parametrize(
    ("base", "cpus", "quota_ok", "labels"),
    [
        (
            Scenario(workers=1, rayon=2),
            2,
            True,
            [
                "as given",
                "rayon=4",
                "workers=2",
                "chaos",
                "squeeze=1",
                "burners=2",
                "cpu-quota=1",
                "switch=100us",
                "chaos+squeeze=1",
                "chaos+burners=2",
            ],
        ),
        # no quota where cgroups are not writable; halving offered once a pool has 4 threads
        (
            Scenario(workers=5, rayon=16),
            16,
            False,
            [
                "as given",
                "rayon=32",
                "rayon=8",
                "workers=10",
                "workers=2",
                "chaos",
                "squeeze=1",
                "burners=16",
                "gang=30",
                "switch=100us",
                "chaos+gang=30",
                "chaos+squeeze=1",
                "chaos+burners=16",
            ],
        ),
        # amplifiers already on are not offered again, nor combinations with them
        (
            Scenario(
                workers=10, rayon=64, chaos=7, squeeze=1, burners=1, cpu_quota=1.0, switch_interval=0.001
            ),
            2,
            True,
            ["as given", "rayon=32", "workers=5", "gang=30"],
        ),
    ],
)
def test_the_settings_offered(base: Scenario, cpus: int, quota_ok: bool, labels: list[str]) -> None:
    """(Without the delay layer installed; with it, see below.)"""
    assert [a.label for a in explore.arms(base, cpus, quota_ok)] == labels


def test_an_arm_applies_its_changes_and_names_its_flags() -> None:
    arm = next(
        a for a in explore.arms(Scenario(workers=1, rayon=2, seed=9), 2, True) if a.label == "chaos+burners=2"
    )
    assert arm.flags == "--chaos 9 --burners 2"
    applied = arm.apply(Scenario(workers=1, rayon=2, seed=9))
    assert (applied.chaos, applied.burners, applied.rayon) == (9, 2, 2)
    quota = next(
        a for a in explore.arms(Scenario(workers=1, rayon=2), 2, True) if a.label.startswith("cpu-quota")
    )
    assert quota.flags == "--cpu-quota 1"


def test_untried_settings_go_first_in_order() -> None:
    rng = random.Random(0)
    seen = [(0, 0.1, 100, 1), (0, 0.0, 0, 0), (0, 0.0, 0, 0)]
    assert explore.pick(rng, seen) == 1


def test_thompson_sampling_favours_the_setting_with_more_hangs_per_cpu_minute() -> None:
    rng = random.Random(1)
    # arm 1: 6 hangs in 1 CPU-minute; arms 0 and 2: none in 1 CPU-minute
    seen = [(0, 1.0, 1000, 10), (6, 1.0, 1000, 10), (0, 1.0, 1000, 10)]
    picks = Counter(explore.pick(rng, seen) for _ in range(2000))
    assert picks[1] / 2000 > 0.95
    # equal evidence: no favourite (each within a few points of a third)
    even = Counter(explore.pick(rng, [(1, 1.0, 1000, 10)] * 3) for _ in range(3000))
    assert all(abs(even[i] / 3000 - 1 / 3) < 0.05 for i in range(3))


def test_the_delay_layer_is_offered_where_it_is_installed_and_workers_are_spawned() -> None:
    def labels(base: Scenario, ok: bool) -> list[str]:
        return [a.label for a in explore.arms(base, 2, False, delays_ok=ok)]

    assert "delays" in labels(Scenario(workers=2, rayon=2), True)
    assert "delays" not in labels(Scenario(workers=2, rayon=2), False)
    assert "delays" not in labels(Scenario(workers=2, rayon=2, start_method="fork"), True)
    assert "delays" not in labels(Scenario(workers=2, rayon=2, delays=3), True)
    arm = next(
        a for a in explore.arms(Scenario(workers=2, rayon=2, seed=5), 2, False, True) if a.label == "delays"
    )
    assert arm.flags == "--delays 5"


def test_the_ranking_is_best_first_with_intervals_and_probabilities() -> None:
    arms = explore.arms(Scenario(workers=1, rayon=2), 2, False)
    waves = [wave("as given", False, 6.0, 300) for _ in range(3)]
    waves += [wave("rayon=4", True, 1.5, 40) for _ in range(3)] + [wave("rayon=4", False, 6.0, 300)]
    waves += [wave("chaos", True, 3.0, 100), wave("chaos", False, 6.0, 300)]
    ranking = explore.rank(waves, arms)
    assert [r.label for r in ranking[:3]] == ["rayon=4", "chaos", "as given"]
    best = ranking[0]
    assert (best.waves, best.hangs, best.batches) == (4, 3, 420)
    assert best.cpu_minutes == pytest.approx(10.5 / 60)
    assert best.per_cpu_minute is not None
    rate, low, high = best.per_cpu_minute
    assert rate == pytest.approx(3 / (10.5 / 60))
    assert low < rate < high
    assert best.p_best > 0.7
    assert best.p_best > max(r.p_best for r in ranking[1:])
    assert sum(r.p_best for r in ranking) == pytest.approx(1.0)
    never = [r for r in ranking if r.waves == 0]
    assert never
    assert all(r.per_cpu_minute is None and r.p_best == 0 for r in never)
    assert ranking[-len(never) :] == tuple(never)  # a prior is not evidence: never-run settings last
    assert explore.rank(waves, arms) == ranking  # the same evidence, the same ranking
    # by how much each beat the setting as given (which never hung here: only a lower bound)
    assert best.vs_given is not None
    ratio, low, high = best.vs_given
    assert ratio == float("inf")
    assert 0.5 < low < high == float("inf")
    assert next(r for r in ranking if r.label == "as given").vs_given is None  # neither side hung
    assert all(r.vs_given is None for r in never)


def test_a_setting_is_compared_with_the_setting_as_given_by_an_exact_interval() -> None:
    arms = explore.arms(Scenario(workers=2, rayon=2), 2, False)
    waves = [wave("as given", i < 2, 6.0, 300) for i in range(10)]  # 2 hangs in 1 CPU-minute
    waves += [wave("gang=30", i < 8, 6.0, 300) for i in range(10)]  # 8 in 1 CPU-minute
    gang = next(r for r in explore.rank(waves, arms) if r.label == "gang=30")
    assert gang.flags == "--gang 30"
    assert gang.vs_given is not None
    ratio, low, high = gang.vs_given
    assert ratio == pytest.approx(4.0)
    assert 0.5 < low < 1.0
    assert high > 4.0


@pytest.mark.slow
def test_explore_needs_a_budget() -> None:
    r = run_cli(["hunt", "--explore"], timeout=60)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "gvlstress: error: --explore needs --budget or --max-waves (hint: e.g. --explore --budget 20m)"
    ]


@pytest.mark.slow
@pytest.mark.alone  # it compares hang rates per CPU-minute: whatever runs beside it changes them
@pytest.mark.timeout(400)
def test_explore_finds_that_more_threads_make_the_lock_order_race_frequent(tmp_path: Path) -> None:
    """1 x 2 threads hangs about once per 1800 batches; two settings make it far more frequent:
    1 x 4 (about 50 times as often) and strict chaos (> 6x per CPU-minute, bench/amplify.py).
    Given two minutes, the exploration must rank one of them first and run most waves on it."""
    r = run_cli(
        [
            "hunt",
            "--fault",
            "lock_order",
            "-o",
            "window_us=0",
            "--workers",
            "1",
            "--rayon",
            "2",
            "--iterations",
            "300",
            "--explore",
            "--budget",
            "120",
            "--report-dir",
            str(tmp_path),
        ],
        timeout=360,
    )
    assert r.returncode == 1, r.stdout + r.stderr
    assert "settings explored, best first" in r.stdout
    (path,) = tmp_path.glob("*/run.json")
    run = json.loads(path.read_text())
    ranking = run["exploration"]
    best = ranking[0]["label"]
    assert best in ("rayon=4", "chaos"), [(a["label"], a["hangs"], a["waves"]) for a in ranking]
    assert ranking[0]["hangs"] >= 2
    assert {w["setting"] for w in run["waves"]} == {a["label"] for a in ranking}  # every setting tried
    per_setting = Counter(w["setting"] for w in run["waves"])
    assert per_setting[best] == max(per_setting.values())
    assert sum(a["waves"] for a in ranking) == len(run["waves"])
    md = (path.parent / "report.md").read_text()
    assert "## Settings explored" in md
    assert f"Most race-prone so far: **{best}**" in md


def test_the_switch_interval_arm_names_its_flag_and_is_not_offered_when_set() -> None:
    arm = next(a for a in explore.arms(Scenario(workers=2, rayon=2), 2, False) if a.label == "switch=100us")
    assert arm.flags == "--switch-interval 0.0001"
    assert arm.apply(Scenario()).switch_interval == pytest.approx(1e-4)
    set_already = Scenario(workers=2, rayon=2, switch_interval=0.001)
    assert not any(a.label.startswith("switch") for a in explore.arms(set_already, 2, False))
