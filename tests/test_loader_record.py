"""What a loader knows about itself is its target's record (`LoaderFacts`), and only the target
names the loader: the judge, the reports, ``--like``, ``doctor`` and ``compare`` read the record
as data. A third-party record is read as the built-in one is."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import builders
from conftest import ROOT
from gvlstress import store
from gvlstress.campaign.compare import run_stats
from gvlstress.judge.audit import audit
from gvlstress.judge.symptoms import RULES, beside
from gvlstress.model import KnownHang, LoaderFacts, RunResult, TargetFacts, Verdict
from gvlstress.reporters.markdown.run import render
from gvlstress.targets.base import loader_of
from gvlstress.targets.gvl_support import RECORD, GenvarloaderTarget
from gvlstress.targets.registry import builtin_loaders, recorded

SRC = ROOT / "src" / "gvlstress"
ALLOWED = {
    # a catalogue program reproducing the real bug, standalone: its docstring names where it was seen
    "controls/bugs/executor_wedge.py",
}


def test_only_the_targets_name_a_loader() -> None:
    # GIVEN every file of the package (what `grep -ri genvarloader src/gvlstress` reads)
    hits = sorted(
        rel
        for path in SRC.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
        and not (rel := path.relative_to(SRC).as_posix()).startswith("targets/")
        and "genvarloader" in path.read_bytes().decode("utf-8", "replace").lower()
    )  # fmt: skip
    # THEN none outside targets/ names it (but the one catalogue program about that bug)
    assert set(hits) <= ALLOWED, hits


MYLIB = LoaderFacts(
    name="mylib",
    version_key="mylib",
    resolved_key="resolved",
    env_after_key="after",
    known_hang=KnownHang(
        "mylib #12", "#12", symptoms=(("cpu", "no CPU at all"), ("teleport", "it vanished"))
    ),
)
"""A third-party loader's record: a known hang, one symptom gvlstress has no rule for."""


def _hung_run(loader: LoaderFacts, with_symptoms: bool = True) -> RunResult:
    w = builders.worker(Verdict.DEADLOCK, target_info={"mylib": "1.2", "resolved": 4, "after": "16"})
    wave = builders.wave(workers=(w,))
    if with_symptoms and loader.known_hang is not None:
        wave = dataclasses.replace(wave, symptoms=beside(wave, loader.known_hang.symptoms))
    return builders.run(waves=(wave,), target=TargetFacts("mylib:batches", loader=loader))


def test_a_records_known_hang_is_judged_by_its_rules_and_reported_under_its_title() -> None:
    # GIVEN a hung wave of a loader whose record names a known hang
    run = _hung_run(MYLIB)
    (wave,) = run.waves
    # THEN each reported symptom stands beside what the wave showed; an unknown rule never matches
    assert [(s.name, s.reported) for s in wave.symptoms] == [
        ("cpu", "no CPU at all"),
        ("teleport", "it vanished"),
    ]
    assert "teleport" not in RULES
    assert not wave.symptoms[1].matches
    # AND the report puts them under the record's title
    md = render(run)
    assert "## Beside mylib #12" in md
    assert "| reported in #12 | wave 1 | same |" in md
    # AND without a known hang in the record there is no such section
    assert "## Beside" not in render(_hung_run(LoaderFacts(), with_symptoms=False))


def test_the_audit_and_compare_read_the_keys_the_record_names() -> None:
    items = [i.message for i in audit(_hung_run(MYLIB))]
    assert any(m.startswith("mylib resolved 4 thread(s), but RAYON_NUM_THREADS=16 survived") for m in items)
    assert run_stats(_hung_run(MYLIB)).versions == "mylib 1.2"
    # the same run without the record: nothing about what the loader resolved, the target's versions
    plain = _hung_run(LoaderFacts())
    assert not any("resolved" in i.message for i in audit(plain))
    assert run_stats(plain).versions == "-"


def test_each_target_has_a_record_and_a_run_written_before_records_gets_its_targets(tmp_path: Path) -> None:
    assert loader_of(GenvarloaderTarget()) == RECORD == recorded("genvarloader")
    assert loader_of(object()) == LoaderFacts()
    assert recorded("mymodule:batches") is None  # nothing is imported for a name not built in
    assert RECORD in builtin_loaders()
    # a run.json of before the record: the committed example (a native run) gets native's record
    example = tmp_path / "example"
    shutil.copytree(ROOT / "reports" / "examples" / "lock-across-par-iter", example)
    assert "loader" not in json.loads((example / "run.json").read_text())["target"]
    assert store.read(example).target.loader == LoaderFacts()
    assert store.read(example, recorded).target.loader == recorded("native")
    native = recorded("native")
    assert native is not None
    assert native.version_key == "gvlstress_native"
