"""What a shrink tells a person (`reporters.console.shrink`) and writes (`reporters.markdown.shrink`):
every step with its launches and decision, the smallest setting, the measured reproducer, the
warnings, and how to resume a shrink that did not finish."""

from __future__ import annotations

import io

from rich.console import Console

from builders import wave
from gvlstress.model import Verdict
from gvlstress.model.rate import Rate
from gvlstress.model.shrink import Measured, ShrinkResult, Step
from gvlstress.reporters.console.shrink import ShrinkView, print_shrink
from gvlstress.reporters.markdown.shrink import render_shrink, setting_line

ORIGINAL = {
    "target": "native",
    "fault": "lock-order",
    "workers": 5,
    "rayon": 8,
    "chaos": "cpu",
    "options": {"n": 3},
}
STEPS = (
    Step(
        "drop --chaos", {"chaos": None}, launches=6, hangs=5, decision="kept", why="H1 accepted", runs=("r1",)
    ),
    Step("workers 5 -> 1", {"workers": 1}, launches=9, hangs=0, decision="dropped", why="H0 accepted"),
    Step("workers 5 -> 3", {"workers": 3}, launches=4, hangs=3, decision="kept", why="H1 accepted"),
)


def result(**kw: object) -> ShrinkResult:
    base: dict[str, object] = {
        "source": "reports/run-1",
        "original": ORIGINAL,
        "original_rate": Rate(8, 10, 0.5, 0.95),
        "stated_rate": 0.5,
        "ratio": 4.0,
        "alpha": 0.05,
        "beta": 0.1,
        "steps": STEPS,
        "minimal": {"chaos": None, "workers": 3},
        "launches": 19,
        "seconds": 300.0,
        "stopped": "every dimension tried",
        "finished": True,
    }
    return ShrinkResult(**{**base, **kw})  # type: ignore[arg-type]


def test_the_setting_line_names_what_makes_the_setting_with_the_changes_applied() -> None:
    assert setting_line(ORIGINAL) == "target=native, fault=lock-order, workers=5, rayon=8, chaos=cpu, -o n=3"
    assert setting_line(ORIGINAL, {"chaos": None, "workers": 3}) == (
        "target=native, fault=lock-order, workers=3, rayon=8, -o n=3"
    )


def test_shrink_md_gives_the_path_the_smallest_setting_and_how_each_step_was_decided() -> None:
    md = render_shrink(result(warnings=("the host was loaded",)))
    assert md.startswith("# gvlstress shrink: 2 of 3 step(s) kept\n")
    assert "**target=native, fault=lock-order, workers=3, rayon=8, -o n=3**" in md
    assert "3 step(s), 19 launch(es), 300s" in md
    assert "> **Warning:** the host was loaded" in md
    rows = [line for line in md.splitlines() if line.startswith("| ") and "accepted" in line]
    assert [r.split("|")[5].strip() for r in rows] == ["kept", "dropped", "kept"]
    assert "alpha 0.05 and beta 0.1" in md
    assert "resumes it" not in md


def test_an_unfinished_shrink_says_how_to_resume_it() -> None:
    md = render_shrink(result(finished=False, stopped="", steps=()))
    assert "(no step yet)" in md
    assert "not finished" in md
    assert "`gvlstress shrink reports/run-1` resumes it from shrink.json" in md


def test_the_console_summary_names_the_setting_the_reproducer_and_the_files() -> None:
    out = io.StringIO()
    r = result(
        measured=Measured(Rate(3, 4, 0.3, 0.99)),
        warnings=("a warning",),
        files=("repro.py", "shrink.json"),
    )
    print_shrink(Console(file=out, width=300), r, "reports/run-1")
    said = out.getvalue()
    assert "shrink: 2 of 3 step(s) kept, 19 launch(es), 300s; every dimension tried" in said
    assert "smallest setting: target=native, fault=lock-order, workers=3, rayon=8, -o n=3" in said
    assert "reproducer: hung in" in said
    assert "warning: a warning" in said
    assert "reports/run-1/repro.py" in said
    assert "report: reports/run-1/shrink.md" in said


def test_a_reproducer_that_could_not_be_measured_says_why() -> None:
    out = io.StringIO()
    print_shrink(
        Console(file=out, width=300), result(measured=Measured(Rate(0, 0, 0, 1), error="it crashed")), "d"
    )
    assert "reproducer: could not be measured: it crashed" in out.getvalue()


def test_the_live_view_tells_each_step_its_launches_and_its_decision() -> None:
    out = io.StringIO()
    step = Step("workers 5 -> 3", {"workers": 3}, launches=1, hangs=1)
    with ShrinkView(Console(file=out, width=300)) as view:
        view.step_started(2, step, (6, 40))
        view.launched(2, step, wave(verdict=Verdict.DEADLOCK, wall_s=12.5))
        view.step_finished(2, Step("workers 5 -> 3", {}, decision="kept", why="H1 accepted after 4 launches"))
        view.measuring(3, 60.0)
    said = out.getvalue().splitlines()
    assert said[0] == "step 2: workers 5 -> 3 (resumed at 1/1 hung)"
    assert said[1].startswith("  launch 1: ")
    assert said[1].endswith(" in 12.5s (1/1 hung)")
    assert said[2] == "step 2: kept: H1 accepted after 4 launches"
    assert said[3] == "measuring the reproducer alone: 3 launch(es), 60s each at most"
