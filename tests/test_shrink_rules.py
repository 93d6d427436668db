"""The shrink's rules (pure): which smaller setting comes next, how each step is decided, and the
three forms of the result (the standalone file, its scenario TOML, its run line) saying the same."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest

from gvlstress.api import reproduce
from gvlstress.campaign import shrink
from gvlstress.cli.options import scenario_from_options
from gvlstress.cli.run import run as run_command
from gvlstress.model.shrink import Recipe, Reproduction, Step
from gvlstress.reporters import reproducer
from gvlstress.scenario import Scenario, resolve
from gvlstress.targets import standalone
from gvlstress.targets.base import TargetPlan

ORIGINAL = Scenario(
    workers=5,
    rayon=8,
    iterations=100,
    fault="lock_order",
    start_method="fork",
    chaos=1,
    burners=2,
    options={"window_us": 0},
)


def _labels(original: Scenario, decisions: list[str], pool: int = 2) -> list[str]:
    """The labels of the steps a search takes when its steps are decided as `decisions` say."""
    steps: list[Step] = []
    for decision in decisions:
        step = shrink.next_step(original, steps, pool)
        if step is None:
            break
        steps.append(dataclasses.replace(step, decision=decision, launches=3))
    return [s.label for s in steps]


def test_harness_only_amplifiers_go_first_then_the_others_then_the_start_method_then_sizes() -> None:
    labels = _labels(ORIGINAL, ["kept"] * 8)
    assert (
        labels
        == [
            "drop --chaos",
            "drop --burners",
            "start method fork -> spawn",
            "workers 5 -> 1",
            "threads 8 -> 1",
            "batches 100 -> 1",
            "drop -o window_us=0",
        ][: len(labels)]
    )
    assert len(labels) == 7  # then nothing is left: the search is over


def test_a_size_is_bisected_between_the_largest_too_small_and_the_current() -> None:
    plain = Scenario(workers=5, rayon=2, iterations=1)
    # workers: 1 dropped -> 3 kept -> 2 dropped -> done; then threads 2 -> 1
    assert _labels(plain, ["dropped", "kept", "dropped", "dropped"]) == [
        "workers 5 -> 1",
        "workers 5 -> 3",
        "workers 3 -> 2",
        "threads 2 -> 1",
    ]


def test_threads_left_to_the_loader_start_from_the_pool_it_had() -> None:
    (first,) = _labels(Scenario(workers=1, iterations=1), ["dropped"], pool=16)
    assert first == "threads 16 (the loader's own) -> 1"


def test_an_unfinished_step_is_taken_up_again_with_its_launches() -> None:
    pending = Step("workers 5 -> 1", {"workers": 1}, launches=2, hangs=1)
    assert shrink.next_step(ORIGINAL, [pending], 2) is pending


def test_kept_steps_compose_into_the_minimal_setting() -> None:
    steps = [
        Step("drop --chaos", {"chaos": None}, decision="kept"),
        Step("workers 5 -> 1", {"workers": 1}, decision="dropped"),
        Step("workers 5 -> 3", {"workers": 3}, decision="kept"),
    ]
    minimal = shrink.current(ORIGINAL, steps)
    assert (minimal.chaos, minimal.workers, minimal.burners) == (None, 3, 2)
    assert shrink.changed(ORIGINAL, minimal) == {"workers": 3, "chaos": None}


@pytest.mark.parametrize(
    ("hangs", "launches", "cap", "decision"),
    [
        (3, 3, 30, "kept"),
        (0, 2, 30, "dropped"),
        (5, 30, 30, "dropped"),
        (2, 3, 30, None),
        (2, 3, 3, "undecided"),
    ],
)
def test_each_step_is_decided_by_the_sequential_test(
    hangs: int, launches: int, cap: int, decision: str | None
) -> None:
    test = shrink.sprt(0.9)  # H1: 0.9 per launch; H0: a quarter of it
    said = shrink.decide(test, hangs, launches, cap)
    assert (said[0] if said else None) == decision


def test_the_stated_rate_is_the_runs_own_within_what_the_test_can_state() -> None:
    assert shrink.stated_rate(2, 2) == shrink.RATE_CAP
    assert shrink.stated_rate(3, 10) == pytest.approx(0.3)
    assert shrink.stated_rate(1, 1000) == shrink.RATE_FLOOR


def _reproduction(minimal: Scenario) -> Reproduction:
    plan = TargetPlan(
        entry=standalone.NATIVE, options={"fault": minimal.fault, "fault_rate": 1.0, **dict(minimal.options)}
    )
    rep = reproduce.reproduction(minimal, plan, "seen", 10.0, 5, "reports/RUN")
    assert rep is not None
    return rep


def test_the_toml_and_the_run_line_resolve_to_the_same_setting() -> None:
    minimal = Scenario(
        workers=1,
        rayon=4,
        iterations=20,
        fault="lock_order",
        inherit_rayon=16,
        burners=1,
        options={"window_us": 200},
    )
    rep = _reproduction(minimal)
    raw = tomllib.loads(reproducer.render_toml(rep))
    from_toml = resolve(None, {**raw["scenario"], "options": raw["target"]})
    with run_command.make_context("run", list(reproducer.run_argv(rep)[2:])) as ctx:
        params = dict(ctx.params)
    params.pop("shard", None)
    from_line = scenario_from_options(**params)
    for got in (from_toml, from_line):
        assert dataclasses.replace(got, name="adhoc", source="defaults", waves=3) == dataclasses.replace(
            minimal, options={"window_us": 200}
        )
    assert from_toml.waves == from_line.waves == 5


def test_the_reproducer_imports_only_the_standard_library_and_the_loader() -> None:
    rep = _reproduction(
        Scenario(workers=2, rayon=4, iterations=3, fault="lock_across_par_iter", kill_worker="sending")
    )
    text = reproducer.render_python(rep)
    compile(text, "reproduce.py", "exec")
    imported = {
        line.split()[1].split(".")[0]
        for line in text.splitlines()
        if line.strip().startswith(("import ", "from ")) and not line.startswith('"')
    }
    assert "gvlstress" not in imported
    assert imported <= {
        "argparse", "concurrent", "json", "math", "multiprocessing", "os", "random", "signal", "sys",
        "threading", "time", "gvlstress_native",
    }  # fmt: skip
    assert "ENV = {'RAYON_NUM_THREADS': '4'}" in text
    assert "KILL_WORKER = 'sending'" in text


def test_a_callable_target_becomes_a_call_of_the_users_function() -> None:
    plan = TargetPlan(
        entry=standalone.CALLABLE, options={"target": "mypkg.loaders:batches", "kwargs": {"n": 3}}
    )
    got = standalone.recipe(plan)
    assert got is not None
    assert got.imports[-1] == "from mypkg.loaders import batches as make_batches"
    assert (got.modules, got.options, got.next) == (("mypkg",), {"n": 3}, "next(loader)")


def test_a_third_party_target_class_keeps_its_own_worker_half() -> None:
    got = standalone.recipe(TargetPlan(entry="acme.gvl:open_worker", options={"path": "/data"}))
    assert got == Recipe(
        imports=("from acme.gvl import open_worker as open_worker",),
        open="open_worker(OPTIONS, seed, slot)",
        next="loader.next_batch()",
        modules=("acme",),
        options={"path": "/data"},
        note="acme.gvl:open_worker is the target's own worker half, imported as it is",
    )


def test_the_reproducers_timeout_comes_from_the_slowest_clean_launch() -> None:
    steps = (Step("a", {}, batch_s=2.0), Step("b", {}, batch_s=7.5))
    from gvlstress.model import HostFacts, RunResult, TargetFacts

    run = RunResult(Scenario(), HostFacts(), TargetFacts("native"), (), "", "", (), "")
    assert reproduce.timeout_for(Scenario(timeout=60), steps, run) == 22.5
    assert reproduce.timeout_for(Scenario(timeout=15), steps, run) == 15
    assert reproduce.timeout_for(Scenario(), (), run) == reproduce.TIMEOUT_FLOOR_S
