"""The console's last words (`reporters.console.summaries`): `doctor`'s checks and what they
mean for a run, a run's summary line and where its report is, `plan`'s waves and time, `slurm`'s
scripts and how to submit them."""

from __future__ import annotations

import dataclasses
import io

from rich.console import Console

from builders import run, wave, worker
from gvlstress.model import HostFacts, Verdict
from gvlstress.model.campaign import HuntResult, Plan, SlurmJobs, SweepCell, SweepResult
from gvlstress.model.inspect import Check
from gvlstress.model.rate import Rate
from gvlstress.model.run import HostShard, Shard
from gvlstress.reporters.console.summaries import (
    print_checks,
    print_hosts,
    print_hunt,
    print_plan,
    print_slurm,
    print_summary,
    print_sweep,
)
from gvlstress.scenario import Scenario


def said(print_it: object, *args: object) -> str:
    out = io.StringIO()
    print_it(Console(file=out, width=300), *args)  # type: ignore[operator]
    return out.getvalue()


def test_doctor_says_a_run_gets_every_view_when_only_optional_checks_fail() -> None:
    text = said(
        print_checks,
        (Check("py-spy", True, "0.4.0"), Check("c++filt", False, "not found", "apt install binutils", False)),
    )
    assert "py-spy" in text
    assert "warn" in text
    assert "apt install binutils" in text
    assert "A run here gets full diagnostics" in text


def test_doctor_says_a_failed_required_check_costs_a_view_and_exit_4() -> None:
    text = said(print_checks, (Check("ptrace", False, "Yama scope 3", "as root"),))
    assert "FAIL" in text
    assert "would miss diagnostic views" in text
    assert "(exit 4)" in text


def test_a_runs_summary_counts_its_waves_and_points_at_the_report() -> None:
    result = run((wave(0), wave(1, workers=(worker(Verdict.CRASH),))))
    text = said(print_summary, result, "reports/r1")
    first = text.splitlines()[0]
    assert "2 waves, 0 hung, 1 crashed, 0 errored" in first
    assert "report: reports/r1/report.md  (run.json, junit.xml beside it)" in text
    assert "first hang" not in text
    assert "cores:" not in text


def test_plan_gives_the_clean_waves_and_without_a_run_asks_for_one() -> None:
    text = said(print_plan, Plan(rate=0.01, confidence=0.95, waves=299, hosts=1))
    assert "299 clean waves in a row" in text
    assert "(1 - 0.01)^299 <= 0.05" in text
    assert "add --from RUN_DIR" in text


def test_plan_from_a_run_gives_batches_and_time_per_host() -> None:
    p = Plan(0.01, 0.95, 300, 4, "reports/r1", batches_per_wave=20.0, waves_per_hour=150.0, done_clean=12)
    lines = said(print_plan, p).splitlines()
    assert "batches: 6,000 (20 per wave in reports/r1)" in lines
    assert "time: 2.0 h on this host at 150 waves/hour; 30 min on 4 hosts (--shard I/4)" in lines
    assert "reports/r1 already has 12 of them (if nothing changed since)" in lines


def test_plan_from_a_run_that_hung_claims_no_bound() -> None:
    text = said(print_plan, Plan(0.5, 0.9, 4, 1, "r", waves_per_hour=7200.0, hung=2))
    assert "time: 2 s on this host" in text
    assert "note: r has 2 hung waves: no bound below its observed rate can be claimed" in text


def test_slurm_says_what_was_written_and_how_to_submit_it() -> None:
    jobs = SlurmJobs("d", "d/array.sh", "d/merge.sh", "d/submit.sh")
    text = said(print_slurm, jobs)
    assert "wrote d/array.sh, d/merge.sh and d/submit.sh" in text
    assert "submit with: bash d/submit.sh" in text
    assert "merged report when done: d/merged/report.md" in text
    submitted = said(print_slurm, SlurmJobs("d", "a", "m", "s", array_job="41", merge_job="42"))
    assert "submitted array job 41; merge job 42 runs after it (afterany)" in submitted
    assert "submit with" not in submitted


def cell(workers: int, rayon: int, amplifier: str, hung: int) -> SweepCell:
    return SweepCell(
        workers, rayon, amplifier, "r", 10, hung, 1000, 1.0, Rate(hung, 1000, 0.001, 0.004), None
    )


def test_a_sweep_shows_the_hazard_per_cell_and_says_when_no_heatmap_was_drawn() -> None:
    r = SweepResult(
        (cell(1, 2, "none", 2), cell(2, 2, "none", 0), cell(1, 2, "chaos", 5)),
        (1, 2),
        (2,),
        ("none", "chaos"),
        Scenario(),
        "reports/sweep",
        None,
    )
    lines = said(print_sweep, r).splitlines()
    row = next(line for line in lines if "1 x 2" in line)
    assert "2.00 [1.00-4.00] (2/10)" in row
    assert "5.00 [1.00-4.00] (5/10)" in row
    other = next(line for line in lines if "2 x 2" in line)
    assert "0.00 [1.00-4.00] (0/10)" in other
    assert other.rstrip(" │|").endswith("-")  # no chaos cell for 2 workers
    assert "no heatmap: matplotlib is not installed here" in "\n".join(lines)
    assert lines[-1] == "report: reports/sweep/report.md"
    drawn = said(print_sweep, dataclasses.replace(r, heatmap="reports/sweep/heatmap.png"))
    assert "heatmap: reports/sweep/heatmap.png" in drawn


def test_merge_says_each_input_and_flags_the_host_out_of_line() -> None:
    hosts = (
        HostShard("a", Shard(0, 2), HostFacts(host="node1"), (), 50, 1, 500, 0.9, False),
        HostShard("b", None, HostFacts(host="node2"), (), 50, 20, 500, 0.0001, True),
    )
    lines = said(print_hosts, run(hosts=hosts, warnings=tuple(f"w{i}" for i in range(22)))).splitlines()
    assert lines[0] == "shard 0/2 on node1: 1/50 waves hung (p = 0.9 against the others)"
    assert lines[1] == "run on node2: 20/50 waves hung (p = 0.0001 against the others)  out of line"
    assert lines[2:4] == ["warning: w0", "warning: w1"]
    assert len([line for line in lines if line.startswith("warning:")]) == 20
    assert lines[-1] == "... and 2 more warnings in run.json"


def test_a_hunt_says_why_it_stopped_its_hazard_and_the_first_hang() -> None:
    h = HuntResult(
        run(), "a hang found", 1, 3, 400, 2.5, Rate(1, 400, 0.0001, 0.014), (0.4, 0.01, 2.2), 350, 41.0
    )
    lines = said(print_hunt, h).splitlines()
    assert lines[0] == "hunt stopped: a hang found; 3 waves, 400 batches, 2.5 CPU-minutes of workers"
    assert (
        lines[1]
        == "hazard: 2.50 hangs per 1000 batches [95% CI 0.10-14.00]; 0.400 per CPU-minute [0.010-2.200]"
    )
    assert lines[2] == "first hang after 350 batches and 41.0s"
    assert lines[-1] == "report: /r/host/report.md  (run.json, junit.xml beside it)"


def test_a_hunt_without_a_hang_has_no_first_hang_line() -> None:
    h = HuntResult(run(), "budget spent", 0, 2, 10, 0.1, Rate(0, 10, 0.0, 0.3), None, None, None)
    text = said(print_hunt, h)
    assert "0.000 per CPU-minute [0.000-inf]" in text
    assert "first hang" not in text
