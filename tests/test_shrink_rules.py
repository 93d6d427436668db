"""The shrink's rules (pure): which smaller setting comes next, how each step is decided, and the
three forms of the result (the standalone file, its scenario TOML, its run line) saying the same."""

from __future__ import annotations

import ast
import dataclasses
import sys
import tomllib
from typing import Any

import pytest

from builders import wave
from gvlstress.api import reproduce
from gvlstress.campaign import shrink
from gvlstress.cli.options import scenario_from_options
from gvlstress.cli.run import run as run_command
from gvlstress.model import HostFacts, RunResult, TargetFacts, Verdict
from gvlstress.model.shrink import Recipe, Reproduction, Step
from gvlstress.reporters import reproducer, shrunk
from gvlstress.scenario import Scenario
from gvlstress.scenario_sources import resolve
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
    raw = tomllib.loads(shrunk.render_toml(rep))
    from_toml = resolve(None, {**raw["scenario"], "options": raw["target"]})
    with run_command.make_context("run", list(shrunk.run_argv(rep)[2:])) as ctx:
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
        "threading", "time", "traceback", "gvlstress_native",
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
    run = RunResult(Scenario(), HostFacts(), TargetFacts("native"), (), "", "", (), "")
    assert reproduce.timeout_for(Scenario(timeout=60), steps, run) == 22.5
    assert reproduce.timeout_for(Scenario(timeout=15), steps, run) == 15
    assert reproduce.timeout_for(Scenario(), (), run) == reproduce.TIMEOUT_FLOOR_S


def test_with_no_clean_launch_the_reproducers_timeout_comes_from_how_long_the_hangs_took_to_catch() -> None:
    # GIVEN a run whose every wave hung, caught 13 s in (genvarloader's import and first batches
    # take most of that: a clean launch of its fixed variant takes about 10 s on a busy host)
    hung = tuple(wave(i, Verdict.DEADLOCK, wall_s=15.0, detect_s=s) for i, s in enumerate((13.0, 9.0)))
    run = RunResult(Scenario(), HostFacts(), TargetFacts("native"), hung, "", "", (), "")
    # THEN a launch of the reproducer gets three times the slowest of them, not the 10 s floor
    assert reproduce.timeout_for(Scenario(timeout=120), (), run) == 39.0
    assert reproduce.timeout_for(Scenario(timeout=30), (), run) == 30
    # AND a clean launch seen anywhere (a step's) still decides it alone
    assert reproduce.timeout_for(Scenario(timeout=120), (Step("a", {}, batch_s=2.0),), run) == 10.0


DATA = {"dataset": "/cache/d/dataset.gvl", "reference": "/cache/d/ref.fa", "tracks": None}
DS = "open_dataset()"


@pytest.mark.parametrize(
    ("options", "version", "opened", "taken", "child_batch", "gated"),
    [
        ({"loader": "none"}, "0.36.0", DS, "loader[0 : loader.shape[0], :]", None, True),
        ({"loader": "fork"}, "0.36.0", f"LoaderChild({DS})", "loader.next_batch()", "self.ds.shape[0]", True),
        ({"loader": "forkserver", "batch_regions": 16}, "0.43.1", f"LoaderChild({DS})", "loader.next_batch()",
         "16", False),
        ({"loader": "spawn", "force_parallel": False}, "0.36.0", f"LoaderChild({DS})", "loader.next_batch()",
         "self.ds.shape[0]", False),
    ],
)  # fmt: skip
def test_genvarloader_is_written_out_with_its_loader_child_and_the_dataset_the_run_used(
    options: dict[str, Any], version: str, opened: str, taken: str, child_batch: str | None, gated: bool
) -> None:
    plan = TargetPlan(
        entry=standalone.GENVARLOADER,
        options={**DATA, "mode": "plain", "batch_regions": 0, "force_parallel": True, **options},
        versions={"genvarloader": version},
    )
    got = standalone.recipe(plan)
    assert got is not None
    assert (got.open, got.next, got.modules) == (opened, taken, ("genvarloader",))
    # the dataset the run opened, and the loader child's context where there is one (an option
    # the reader can switch: -o loader=forkserver is the fixed variant)
    child = {"loader": options["loader"]} if child_batch else {}
    assert got.options == {"dataset": DATA["dataset"], "reference": DATA["reference"], **child}
    assert any("should_parallelize = always" in line for line in got.setup) is gated
    assert "def open_dataset():" in got.helpers
    if child_batch is None:
        assert "def loader_child(conn):" not in got.helpers
    else:
        assert f"        return self.ds[0 : {child_batch}, :]" in got.helpers
        assert "def loader_child(conn):" in got.helpers


def test_genvarloader_beside_a_gil_thread_is_not_written_out() -> None:
    plan = TargetPlan(entry=standalone.GENVARLOADER, options={**DATA, "mode": "threaded", "loader": "none"})
    assert standalone.recipe(plan) is None


def test_a_loader_child_reproducer_is_one_program_of_the_stdlib_and_genvarloader() -> None:
    plan = TargetPlan(
        entry=standalone.GENVARLOADER,
        options={**DATA, "mode": "plain", "loader": "fork", "batch_regions": 0, "force_parallel": True},
        versions={"genvarloader": "0.36.0"},
    )
    minimal = Scenario(target="genvarloader", workers=1, rayon=4, iterations=4, options={"loader": "fork"})
    rep = reproduce.reproduction(minimal, plan, "seen", 39.0, 3, "reports/RUN")
    assert rep is not None
    tree = ast.parse(reproducer.render_python(rep))
    # the loader child and its class are top-level (a spawn or forkserver child imports them by
    # name), and no name the program defines is defined twice
    defined = [
        t.id if isinstance(t, ast.Name) else ""
        for node in tree.body
        for t in (node.targets if isinstance(node, ast.Assign) else ())
    ] + [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    assert {"LoaderChild", "loader_child", "LOADER_IN_PARENT", "OPTIONS", "INHERITED"} <= set(defined)
    assert len(defined) == len(set(defined)), sorted(defined)
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])
    }
    assert "gvlstress" not in imported
    assert "genvarloader" in imported


class _FakeDataset:
    """A stand-in for genvarloader's Dataset that records how it was opened (the calls a
    pipeline makes, in order)."""

    def __init__(self, calls: list[tuple[str, Any]], tracks: list[str] | None) -> None:
        self.calls, self.available_tracks = calls, tracks

    def with_seqs(self, kind: Any) -> _FakeDataset:
        self.calls.append(("with_seqs", kind))
        return self

    def with_tracks(self, tracks: Any) -> _FakeDataset:
        self.calls.append(("with_tracks", tracks))
        return self

    def with_len(self, length: Any) -> _FakeDataset:
        self.calls.append(("with_len", length))
        return self


def _fake_genvarloader(calls: list[tuple[str, Any]], tracks: list[str] | None) -> Any:
    import types

    def open_(path: str, reference: str | None = None, **kwargs: Any) -> _FakeDataset:
        calls.append(("open", (path, reference, sorted(kwargs.items()))))
        return _FakeDataset(calls, tracks)

    module = types.ModuleType("genvarloader")
    module.Dataset = types.SimpleNamespace(open=open_)  # type: ignore[attr-defined]
    return module


@pytest.mark.parametrize(
    "user",
    [
        {"seqs": "annotated", "tracks": "coverage", "jitter": 2, "output_length": 500},
        {"seqs": "none", "tracks": "coverage,signal", "rc_neg": False, "deterministic": True},
        {"seqs": "variants", "tracks": "none", "output_length": "ragged"},
    ],
)
def test_the_genvarloader_reproducer_opens_the_users_dataset_as_the_run_did(
    user: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a run on the user's own dataset, opened with their sequences, tracks, jitter, length
    from gvlstress.targets import gvl

    options = {"dataset": "/data/peaks.gvl", "reference": "/data/genome.fa", **user}
    plan = TargetPlan(
        entry=standalone.GENVARLOADER,
        options={**options, "mode": "plain", "loader": "none", "batch_regions": 0, "force_parallel": True},
        versions={"genvarloader": "0.36.0"},
    )
    got = standalone.recipe(plan)
    assert got is not None
    # WHEN the reproducer's open_dataset runs, and the target's own open_dataset, on one fake genvarloader
    worker: list[tuple[str, Any]] = []
    gvl.open_dataset(_fake_genvarloader(worker, ["coverage", "signal"]), options)
    written: list[tuple[str, Any]] = []
    monkeypatch.setitem(sys.modules, "genvarloader", _fake_genvarloader(written, ["coverage", "signal"]))
    program: dict[str, Any] = {"OPTIONS": got.options}
    exec(compile("\n".join(got.helpers), "reproduce.py", "exec"), program)
    program["open_dataset"]()
    # THEN the file opens the dataset exactly as the run's workers did
    assert written == worker
    assert ("with_seqs", None if user["seqs"] == "none" else user["seqs"]) in written


def test_a_track_the_dataset_lacks_is_refused_even_where_genvarloader_only_warns() -> None:
    # GIVEN a dataset with no tracks, opened by a genvarloader that ignores with_tracks (<= 0.36)
    from gvlstress.targets import gvl

    calls: list[tuple[str, Any]] = []
    options = {"dataset": "/data/peaks.gvl", "reference": "/data/genome.fa", "tracks": "signal"}
    # WHEN the workers' open_dataset opens it THEN it says which track is missing
    with pytest.raises(ValueError, match=r"Missing tracks: \['signal'\] \(the dataset has none\)"):
        gvl.open_dataset(_fake_genvarloader(calls, None), options)
    with pytest.raises(ValueError, match=r"Missing tracks: \['signal'\] \(the dataset has coverage\)"):
        gvl.open_dataset(_fake_genvarloader(calls, ["coverage"]), options)
