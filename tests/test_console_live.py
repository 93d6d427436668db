"""The live display of a run (`reporters.console.live.ConsoleObserver`): a table per wave when
the terminal is live, else a line per event; a quiet worker said once however often re-probed;
a worker kept alive for a human with the commands that look at it."""

from __future__ import annotations

import io

from rich.console import Console

from builders import wave, worker
from gvlstress.model import ProbeFinding, ProbeKind, Verdict
from gvlstress.model.live import WorkerStatus
from gvlstress.reporters.console.live import ConsoleObserver
from gvlstress.scenario import Scenario

ROWS = (WorkerStatus(0, 41, 12, 3.5, 9, 97.0, "running"), WorkerStatus(1, None, 0, 0.0, 0, None, "starting"))


def observer(live: bool) -> tuple[ConsoleObserver, io.StringIO]:
    out = io.StringIO()
    return ConsoleObserver(Console(file=out, width=200), live), out


def test_a_plain_run_says_each_wave_and_what_its_workers_did() -> None:
    obs, out = observer(False)
    obs.run_started("reports/r1")
    obs.wave_started(0, Scenario(waves=2, workers=2))
    for _ in range(40):
        obs.progress(0, ROWS)
    obs.capturing(0, (41,))
    obs.warn("a\nwarning")
    w = wave(0, workers=(worker(), worker(Verdict.ERROR, slot=1, pid=42, detail="Traceback\nValueError")))
    obs.wave_finished(w)
    said = out.getvalue()
    assert said.startswith("wave 1/2: 2 workers, rayon=default,")
    assert "  wave 1: 12 batches so far; states: running,starting" in said
    assert "capturing stacks of 1 hung worker before killing them" in said
    assert "warning: a\\nwarning" in said
    assert "wave 1: " in said.splitlines()[-2]
    last = said.splitlines()[-1]
    assert last.startswith("  slot 1 pid 42: ")
    assert "(whole: " in last
    assert "reports/r1/" in last


def test_a_live_run_draws_a_table_and_ends_it_with_the_waves_line() -> None:
    obs, out = observer(True)
    obs.wave_started(0, Scenario(waves=1))
    obs.progress(0, ROWS)
    obs.wave_finished(wave(0, wall_s=2.5))
    assert "in 2.5s (10 batches)" in out.getvalue()


def test_a_quiet_worker_is_said_once_however_often_it_is_probed_again() -> None:
    obs, out = observer(False)
    finding = ProbeFinding(41, ProbeKind.DEADLOCK, 2.0, 0.0, (), (), "two threads wait for each other for 2s")
    for _ in range(3):
        obs.suspected(0, 0, finding)
    said = out.getvalue().splitlines()
    assert said == [
        "  wave 1 slot 0 (pid 41) went quiet: /proc says deadlock: two threads wait for each other for 2s"
    ]


def test_a_worker_kept_alive_comes_with_the_commands_that_look_at_it() -> None:
    obs, out = observer(False)
    obs.kept_alive(wave(2, kept_alive=77), 90.0, "reports/r1/report.md")
    said = out.getvalue()
    assert "worker 77 (wave 3) is kept alive" in said
    assert "  gvlstress inspect 77" in said
    assert "  py-spy dump --native --pid 77" in said
    assert "report: reports/r1/report.md" in said
