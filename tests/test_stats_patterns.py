"""Interval arithmetic against known values, and the pattern fallbacks on constructed captures."""

from __future__ import annotations

import math

import pytest

from gvlstress.campaign.stats import rate, rate_ratio
from gvlstress.judge import names, patterns
from gvlstress.model import Capture, Frame, ProbeFinding, ProbeKind, ThreadView, ToolRun
from gvlstress.model import evidence as ev
from gvlstress.model.rate import wilson, zero_upper


def test_wilson_matches_known_values() -> None:
    # reference values: Wilson score interval, z = 1.96 (e.g. Newcombe 1998, table I)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(1, 10) == pytest.approx((0.0179, 0.4042), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)


def test_zero_events_give_the_rule_of_three_bound() -> None:
    assert zero_upper(10) == pytest.approx(0.2589, abs=1e-4)
    assert zero_upper(100) == pytest.approx(0.0295, abs=1e-4)
    assert zero_upper(262) * 262 == pytest.approx(3.0, abs=0.05)
    r = rate(0, 40)
    assert (r.low, r.p) == (0.0, 0.0)
    assert str(r) == "0/40 (< 7.2% at 95%)"


def test_rate_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="0 <= k <= n"):
        wilson(3, 2)


def view(tid: int, *frames: str, futex: int | None = 0x10) -> ThreadView:
    return ThreadView(
        tid, "python3", "S", "futex", futex, None, 0.0, 0, 0, None, tuple(Frame(f) for f in frames)
    )


def capture(*threads: ThreadView) -> Capture:
    return Capture(
        pid=1, threads=threads, pyspy=ToolRun("py-spy", True, 0.1), native=ToolRun("eu-stack", True, 0.1)
    )


def finding(kind: ProbeKind = ProbeKind.DEADLOCK) -> ProbeFinding:
    return ProbeFinding(1, kind, 0.5, 0.0, (), (), "test")


def test_unknown_shapes_are_named_by_the_end_of_their_chain() -> None:
    cap = capture(view(1, "syscall", "my_app::wait_for_thing", "main"), view(2, "syscall", "other::thing"))
    assert patterns.match(finding(), cap) is None
    assert patterns.closed_wait(cap).pattern == names.CLOSED_WAIT


def test_without_stacks_no_pattern_is_claimed() -> None:
    assert patterns.match(finding(), None) is None
    m = patterns.closed_wait(None)
    assert m.pattern == names.CLOSED_WAIT
    assert "no stacks were captured" in m.hint


def test_fork_after_init_shape() -> None:
    cap = capture(view(1, "syscall", "rayon_core::latch::LockLatch::wait_and_reset", "main"))
    m = patterns.match(finding(), cap)
    assert m is not None
    assert m.pattern == names.FORK_AFTER_INIT
    assert m.facts == (
        ev.RuntimeWorkersMissing(1, "rayon_core::latch::LockLatch::wait_and_reset", "rayon", 1),
        ev.RuntimeNotForked("rayon"),
    )


def test_a_lock_held_across_a_parallel_region_is_told_by_its_facts() -> None:
    """The rule returns the mutex's waiters and the holder waiting for their jobs (`judge.words`
    words them)."""
    main = view(1, "syscall", "rayon_core::latch::LockLatch::wait_and_reset", "main", futex=0x20)
    mutex = "std::sys::sync::mutex::futex::Mutex::lock_contended"
    workers = [
        view(t, "syscall", mutex, "rayon_core::registry::WorkerThread::wait_until_cold", futex=0xA0)
        for t in (2, 3)
    ]
    m = patterns.match(finding(), capture(main, *workers))
    assert m is not None
    assert m.pattern == names.LOCK_ACROSS
    assert m.facts == (
        ev.OneMutexWaiters((2, 3), 0xA0, mutex),
        ev.HolderWaitsJobs(1, "main thread", "rayon_core::latch::LockLatch::wait_and_reset"),
    )


def test_no_native_view_never_reads_as_fork_after_pool_start() -> None:
    # py-spy sees the main thread's latch frames but not the pool threads: absence is unknown
    main = view(1, "syscall", "rayon_core::latch::LockLatch::wait_and_reset", "main")
    cap = Capture(
        pid=1,
        threads=(main, view(2)),
        pyspy=ToolRun("py-spy", True, 0.1),
        native=ToolRun("native", False, 0.0, (), "native stacks unavailable"),
    )
    assert patterns.match(finding(), cap) is None


@pytest.mark.parametrize(
    ("table", "p"),
    [
        ((3, 1, 1, 3), 0.4857),  # Fisher's lady tasting tea
        ((1, 9, 11, 3), 0.002759),  # R: fisher.test(matrix(c(1, 9, 11, 3), 2))
        ((0, 30, 0, 30), 1.0),
        ((10, 0, 0, 10), 1.083e-05),
    ],
)
def test_fisher_exact_known_values(table: tuple[int, int, int, int], p: float) -> None:
    from gvlstress.campaign.stats import fisher_exact

    assert fisher_exact(*table) == pytest.approx(p, rel=1e-3)


@pytest.mark.parametrize(
    ("k1", "t1", "k2", "t2", "expected"),
    [
        # Clopper-Pearson for 20 of 24 is (0.62616, 0.95265) (beta quantiles); R = p / (1 - p) at equal exposure
        (20, 1.0, 4, 1.0, (5.0, 0.62616 / 0.37384, 0.95265 / 0.04735)),
        # exposure scales the ratio: the same counts over twice the first exposure halve it
        (20, 2.0, 4, 1.0, (2.5, 0.62616 / 0.37384 / 2, 0.95265 / 0.04735 / 2)),
    ],
)
def test_rate_ratio_known_values(
    k1: int, t1: float, k2: int, t2: float, expected: tuple[float, float, float]
) -> None:
    assert rate_ratio(k1, t1, k2, t2) == pytest.approx(expected, rel=2e-3)


def test_rate_ratio_edges_and_symmetry() -> None:
    ratio, low, high = rate_ratio(3, 1.0, 0, 1.0)  # nothing on the baseline: only a lower bound
    assert ratio == math.inf
    assert high == math.inf
    assert 0 < low < 3
    nothing = rate_ratio(0, 1.0, 0, 1.0)
    assert math.isnan(nothing[0])
    assert nothing[1:] == (0.0, math.inf)
    a, lo, hi = rate_ratio(7, 1.5, 11, 2.0)
    b, lo2, hi2 = rate_ratio(11, 2.0, 7, 1.5)
    assert a == pytest.approx(1 / b)
    assert lo == pytest.approx(1 / hi2)
    assert hi == pytest.approx(1 / lo2)
