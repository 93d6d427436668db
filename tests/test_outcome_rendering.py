"""Every outcome the model can hold renders, whatever its strings: properties over the record a
worker makes of its exception (never raises, bounded, printable, picklable, redacted) and over
every reporter (report.md within its limit with its code blocks and sections whole, junit.xml
that parses, run.json that round-trips, one console line per worker cut to the terminal).
Pure: no process is started, so many examples run in a few seconds."""

from __future__ import annotations

import dataclasses
import io
import pickle
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from builders import run, wave, worker
from gvlstress import store
from gvlstress.model import (
    Capture,
    Diagnosis,
    Frame,
    ProbeFinding,
    ProbeKind,
    PyThread,
    RunResult,
    ThreadDelta,
    ThreadView,
    ToolRun,
    Verdict,
    WorkerOutcome,
)
from gvlstress.reporters import json_report, junit, markdown
from gvlstress.reporters.console import ConsoleObserver, print_summary
from gvlstress.reporters.markdown.tables import fenced, fit, prose
from gvlstress.system import failure
from gvlstress.system.text import clip, printable
from hostile import FAST, SECRET, UNSAFE, big_texts, class_names, still_open, texts


def _raised(exc: BaseException) -> BaseException:
    try:
        raise exc
    except BaseException as caught:
        return caught


@st.composite
def exceptions(draw: st.DrawFn) -> BaseException:
    """An instance of a generated exception class: any name, a builtin base, and a ``__str__``,
    ``__repr__``, ``__reduce__`` and ``__notes__`` that may each fail or lie."""
    message = draw(big_texts(300_000))

    def shows(self: BaseException) -> object:
        how = draw_str
        if how == "raises":
            raise ValueError(message[:40])
        return {"message": message, "not a str": 42, "bytes": message.encode("utf-8", "surrogatepass")}[how]

    draw_str = draw(st.sampled_from(["message", "raises", "not a str", "bytes"]))
    ns: dict[str, object] = {"__str__": shows}
    if draw(st.booleans()):
        ns["__repr__"] = lambda self: 1 / 0
    if draw(st.booleans()):
        ns["__reduce__"] = lambda self: (_ for _ in ()).throw(TypeError("no pickling"))
    if draw(st.booleans()):
        ns["__notes__"] = property(lambda self: 1 / 0)
    name = draw(class_names)
    base = draw(
        st.sampled_from([Exception, BaseException, OSError, SyntaxError, KeyboardInterrupt, SystemExit])
    )
    cls = type(name or "E", (base,), ns)
    exc = cls(message)
    if draw(st.booleans()):
        try:
            raise cls(message) from RuntimeError(draw(texts))
        except BaseException as chained:
            exc = chained
    return _raised(exc)


@FAST
@given(exceptions())
def test_a_failure_record_is_made_from_any_exception(exc: BaseException) -> None:
    record = failure.describe(exc)
    assert len(record.type) <= failure.TYPE_CHARS
    assert len(record.message) <= failure.MESSAGE_CHARS
    assert len(record.traceback) <= failure.TRACEBACK_CHARS
    for text in record[:3]:
        assert UNSAFE.search(text) is None
        text.encode("utf-8")
        assert SECRET not in text
    assert pickle.loads(pickle.dumps(record)) == record
    assert failure.accept(record) == record  # the supervisor's check changes nothing it made
    assert failure.accept(exc) is None  # and takes nothing else


@FAST
@given(exceptions())
def test_a_target_failing_in_the_supervisor_is_one_line(exc: BaseException) -> None:
    said = failure.user_error("--target x: importing module 'x'", exc).message
    assert "\n" not in said
    assert UNSAFE.search(said) is None
    assert len(said) < 600


def _capture(name: str) -> Capture:
    frames = tuple(Frame(name, file=name, line=1) for _ in range(3))
    view = ThreadView(
        2, name[:15], "S", "futex", 0x10, name, 0.0, 0, 0, PyThread(2, name, True, False, frames), frames
    )
    return Capture(
        2, (view,), ToolRun("py-spy", True, 0.1), ToolRun("eu-stack", False, 0.0, (), name), raw={}
    )


def _workers(big: str, small: str) -> tuple[WorkerOutcome, ...]:
    diagnosis = Diagnosis(Verdict.DEADLOCK, big, (small, big), missing=(small,), pattern=small, hint=big)
    return (
        worker(Verdict.ERROR, slot=0, detail=big, message=small, raised=small, stderr_tail=(small, big)),
        worker(Verdict.DEADLOCK, slot=1, pid=2, diagnosis=diagnosis, capture=_capture(small)),
        worker(Verdict.CRASH, slot=2, pid=3, detail=small, target_info={small: big}),
        worker(Verdict.OK, slot=3, pid=4, env_effective={"RAYON_NUM_THREADS": small}),
    )


@st.composite
def results(draw: st.DrawFn) -> RunResult:
    """A run whose every string came from outside: an error worker's message and traceback, a
    stderr tail, facts, a hung worker's stacks and evidence, warnings, the command line; its
    first wave with texts past every bound, the others (up to 25) with short ones."""
    big = draw(big_texts(70_000))
    small = draw(texts)
    n = draw(st.sampled_from([1, 2, 25]))
    waves = tuple(wave(i, workers=_workers(big if i == 0 else small, small)) for i in range(n))
    warnings = (small[:16],) * draw(st.sampled_from([0, 1, 300_000])) + (big,)
    return run(waves, warnings=warnings, command=("gvlstress", "run", small, big), run_dir=f"/r/{small}")


@settings(FAST, max_examples=12)
@given(results())
def test_every_reporter_renders_every_outcome(
    tmp_path_factory: pytest.TempPathFactory, result: RunResult
) -> None:
    # report.md (and stacks.md): within the limit, printable, every block and section closed
    files = markdown.render_files(result)
    report = files["report.md"]
    assert len(report) <= markdown.REPORT_LIMIT
    for text in files.values():
        assert UNSAFE.search(text) is None
        assert still_open(text.split("\n")) == (None, 0)
    # junit.xml: parses, one case per wave, a bounded message each
    xml = junit.render(result, "/r/report.md")
    suite = ET.fromstring(xml)
    assert len(suite) == len(result.waves)
    assert len(xml) < 3_000 * (len(result.waves) + 1)
    # run.json: round-trips
    d = tmp_path_factory.mktemp("run")
    json_report.write(result, d)
    assert store.read(d).waves == result.waves
    # the console: one line per worker that did not finish cleanly, cut to the terminal (a
    # narrow one keeps the pointer to the file and 10 characters of what was said)
    for width in (160, 60):
        out = io.StringIO()
        console = Console(file=out, width=width, soft_wrap=True, color_system=None)
        observer = ConsoleObserver(console, live=False)
        observer.run_started("/r/x")
        observer.wave_finished(result.waves[0])
        print_summary(console, result, result.run_dir)
        assert UNSAFE.search(out.getvalue()) is None
        lines = [x for x in out.getvalue().splitlines() if x.startswith("  slot ")]
        assert len(lines) == 3
        assert all(len(x) <= max(width, 110) for x in lines), lines
        assert "error.txt)" in lines[0]


blocks = st.one_of(
    texts.map(lambda t: [prose(t)]),
    st.lists(texts, max_size=5).map(lambda ts: fenced(printable("\n".join(ts)))),
    st.lists(texts, max_size=5).map(
        lambda ts: ["<details><summary>x</summary>", "", *fenced(printable("\n".join(ts))), "", "</details>"]
    ),
).map(lambda lines: "\n".join(lines).split("\n"))
"""What report.md is made of: free text (`prose`), code blocks (`fenced`), collapsed sections."""


@FAST
@given(st.lists(blocks, min_size=1, max_size=30))
def test_a_cut_report_keeps_its_blocks_and_sections_closed(parts: list[list[str]]) -> None:
    lines = [line for part in parts for line in part] * 20
    text = fit(lines, ["## Reproduce", "", "```sh", "gvlstress run", "```"], 2_000, "(cut)")
    assert len(text) <= 2_000
    kept = text[: text.index("(cut)")].split("\n")
    assert still_open(kept) == (None, 0)
    assert text.rstrip().endswith("gvlstress run\n```")


@FAST
@given(texts, st.integers(0, 5_000))
def test_clip_keeps_head_and_tail_within_the_limit(text: str, limit: int) -> None:
    long = text * 400
    cut = clip(long, limit)
    assert len(cut) <= max(limit, 0)
    if len(long) <= limit:
        assert cut == long


def test_a_worker_report_carries_no_object_of_the_target(tmp_path: Path) -> None:
    from gvlstress.worker import _plain

    class Odd(int):
        def __index__(self) -> int:
            raise RuntimeError("no")

    said = _plain({"rayon_threads": 4, "odd": Odd(3), "obj": object(), "deep": [[[[[[[[[[1]]]]]]]]]], 7: 1})
    assert said["rayon_threads"] == 4
    assert said["odd"] == 3  # read by int's own method, not the subclass's
    assert said["obj"] == "<object>"
    assert "?" in said  # a key that is not a string


def test_a_probe_that_saw_an_epoll_wait_round_trips_through_run_json(tmp_path: Path) -> None:
    # GIVEN a hung worker whose probe saw a thread in epoll_wait: its (fd, target) pairs
    thread = ThreadDelta(7, "tokio-rt-worker", "S", "do_epoll_wait", 232, None, 0.0, 0, 0, parked=True)
    watching = dataclasses.replace(thread, watched=((10, "anon_inode:[eventfd]"), (11, "pipe:[5]")))
    probe = ProbeFinding(7, ProbeKind.WAITING, 0.5, 0.0, (watching,), (), "waits in epoll_wait()")
    result = run((wave(0, workers=(worker(Verdict.DEADLOCK, probe=probe),)),))
    # WHEN run.json is written and read back (as shrink and compare read it)
    json_report.write(result, tmp_path)
    # THEN it reads, pairs and all
    (back,) = store.read(tmp_path).waves[0].workers
    assert back.probe is not None
    assert back.probe.threads[0].watched == ((10, "anon_inode:[eventfd]"), (11, "pipe:[5]"))
