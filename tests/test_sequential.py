"""Sequential tests that decide early: Wald's SPRT against its stated error rates (simulated with
a fixed seed), known values, and on real runs (`hunt --sequential`, `compare --sequential`)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from scipy.stats import binom

from conftest import run_cli
from gvlstress.campaign import shards as campaign
from gvlstress.campaign.stats import Sprt


def test_the_issue_numbers_average_and_fixed_trials() -> None:
    """H0 0.1% vs H1 2% at 5%/5%: ~164 waves on average if the rate is 0.1%, ~64 if it is 2%."""
    n0, n1 = Sprt(0.001, 0.02).expected_trials()
    assert n0 == pytest.approx(163.7, abs=0.5)
    assert n1 == pytest.approx(64.5, abs=0.5)


@pytest.mark.parametrize(("p0", "p1"), [(0.001, 0.02), (0.5, 0.8), (0.05, 0.2)])
def test_fixed_trials_is_the_least_exact_binomial_test(p0: float, p1: float) -> None:
    n = Sprt(p0, p1).fixed_trials()

    def works(m: int) -> bool:
        return any(binom.sf(c - 1, m, p0) <= 0.05 and binom.cdf(c - 1, m, p1) <= 0.05 for c in range(m + 2))

    assert works(n)
    assert not any(works(m) for m in range(1, n))


@pytest.mark.parametrize(("p0", "p1"), [(0.01, 0.1), (0.5, 0.8)])
def test_simulated_error_rates_and_costs_hold(p0: float, p1: float) -> None:
    """2000 Bernoulli streams at p0 and at p1 (fixed seed): wrong decisions stay within the
    stated rates (Wald: at most alpha / (1 - beta)) and it needs far fewer trials than the fixed test."""
    test = Sprt(p0, p1)
    rng = random.Random(20261122)
    runs = 2000
    for truth, wrong in ((p0, "H1"), (p1, "H0")):
        decisions, used = [], []
        for _ in range(runs):
            k = n = 0
            while (d := test.decide(k, n)) is None:
                n += 1
                k += rng.random() < truth
            decisions.append(d)
            used.append(n)
        error = decisions.count(wrong) / runs
        assert error <= 0.05 / 0.95 + 3 * (0.05 * 0.95 / runs) ** 0.5
        expected = test.expected_trials()[0 if truth == p0 else 1]
        # Wald's approximation ignores the overshoot past a bound, so it runs a little low
        assert 0.8 * expected <= sum(used) / runs <= 1.5 * expected
        assert sum(used) / runs < test.fixed_trials()


def test_pairs_count_only_discordant_waves() -> None:
    a = [True, True, False, True, True, True, True, True]
    b = [True, False, False, False, False, False, False, False]
    r = campaign.sequential_pairs(a, b, 4.0, 0.05, 0.05, ("A", "B"))
    # pairs 2, 4, 5, ... are discordant with A hung: ln(0.8 / 0.5) each, upper bound ln(19)
    assert r.decision is None  # 6 discordant pairs x 0.47 = 2.82 < 2.94
    r = campaign.sequential_pairs([*a, True], [*b, False], 4.0, 0.05, 0.05, ("A", "B"))
    assert r.decision == "H1"
    assert r.trials == 7
    assert "decided at wave pair 9" in r.answer
    same = campaign.sequential_pairs([True, False] * 20, [False, True] * 20, 4.0, 0.05, 0.05, ("A", "B"))
    assert same.decision == "H0"


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_hunt_sequential_decides_h1_on_a_deadlock_and_h0_on_a_healthy_loader(tmp_path: Path) -> None:
    bad = run_cli(
        ["hunt", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "2", "--sequential", "0.01,0.5",
         "--report-dir", str(tmp_path / "bad")]
    )  # fmt: skip
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "hunt stopped: the sequential test decided H1 after 1 wave" in bad.stdout
    assert "answer: hang rate at least 50% per wave (H1" in bad.stdout
    good = run_cli(
        ["hunt", "--workers", "1", "--rayon", "2", "--iterations", "3", "--sequential", "0.2,0.9",
         "--report-dir", str(tmp_path / "good")]
    )  # fmt: skip
    assert good.returncode == 0, good.stdout + good.stderr
    assert "the sequential test decided H0 after 2 waves" in good.stdout
    assert "a fixed-size test of the same error rates" in good.stdout
    nonsense = run_cli(["hunt", "--sequential", "0.5,0.1"])
    assert nonsense.returncode == 2
    assert nonsense.stderr.startswith("gvlstress: error: --sequential '0.5,0.1': need 0 < p0 < p1 < 1")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_compare_sequential_on_two_real_runs(tmp_path: Path) -> None:
    for name, extra in (("hangs", ["--fault", "lock_across_par_iter"]), ("clean", ["--iterations", "3"])):
        r = run_cli(
            [
                "run",
                "--workers",
                "1",
                "--rayon",
                "2",
                "--waves",
                "5",
                *extra,
                "--report-dir",
                str(tmp_path / name),
            ]
        )
        assert r.returncode in (0, 1), r.stdout + r.stderr
    dirs = [str(next((tmp_path / n).iterdir())) for n in ("hangs", "clean")]
    out = tmp_path / "cmp.md"
    r = run_cli(["compare", "--sequential", "--ratio", "20", *dirs, "--output", str(out)])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "hangs more often than" in r.stdout
    assert "decided at wave pair 5" in r.stdout
    assert "sequential test (Wald SPRT" in out.read_text()
    three = run_cli(["compare", "--sequential", *dirs, dirs[0]])
    assert three.returncode == 2
    assert "exactly two run directories" in three.stderr
    data = json.loads((Path(dirs[0]) / "run.json").read_text())
    assert all(w["verdict"] == "deadlock" for w in data["waves"])
