"""The console's last words (`reporters.console.summaries`): `doctor`'s checks and what they
mean for a run, a run's summary line and where its report is, `plan`'s waves and time, `slurm`'s
scripts and how to submit them."""

from __future__ import annotations

import io

from rich.console import Console

from builders import run, wave, worker
from gvlstress.campaign.slurm import SlurmJobs
from gvlstress.model import Verdict
from gvlstress.model.campaign import Plan
from gvlstress.model.inspect import Check
from gvlstress.reporters.console.summaries import print_checks, print_plan, print_slurm, print_summary


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
