"""A run's files (`api.output`, `reporters.raw`): the run directory a run gets (never an existing
one), run.json, report.md and junit.xml written from a result, an errored worker's traceback
beside them, and the copy a CI job uploads."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from builders import run, wave, worker
from gvlstress.api.output import check_report_dir, export, new_run_dir, write_reports
from gvlstress.errors import EnvironmentProblem
from gvlstress.model import Verdict
from gvlstress.reporters import raw

NOW = dt.datetime(2026, 11, 28, 7, 0, 5, tzinfo=dt.UTC)


def test_a_run_directory_is_named_by_time_and_scenario_and_never_reused(tmp_path: Path) -> None:
    first = new_run_dir(tmp_path, "lock order/x", NOW)
    second = new_run_dir(tmp_path, "lock order/x", NOW)
    assert first.name == "20261128T070005Z-lock-order-x"
    assert second.name == "20261128T070005Z-lock-order-x-2"
    assert new_run_dir(tmp_path, "///", NOW).name == "20261128T070005Z-run"


def test_a_report_directory_that_cannot_be_written_is_refused_before_any_work(tmp_path: Path) -> None:
    assert check_report_dir(tmp_path / "a" / "b") == tmp_path / "a" / "b"
    (tmp_path / "file").write_text("x")
    with pytest.raises(EnvironmentProblem, match="is not writable"):
        check_report_dir(tmp_path / "file" / "reports")


def test_a_runs_reports_are_written_and_an_errored_workers_traceback_beside_them(tmp_path: Path) -> None:
    errored = worker(
        Verdict.ERROR, slot=1, pid=42, detail="Traceback (most recent call last):\nValueError: x"
    )
    waves = (wave(0), wave(1, workers=(worker(), errored)))
    written = write_reports(run(waves, run_dir=str(tmp_path)), tmp_path)
    assert {"run.json", "report.md", "junit.xml"} <= set(written)
    data = json.loads((tmp_path / "run.json").read_text())
    assert len(data["waves"]) == 2
    assert "report.md" in (tmp_path / "junit.xml").read_text()
    paths = raw.write(waves[1], tmp_path)
    assert len(paths) == 1
    assert paths[0].read_text() == "Traceback (most recent call last):\nValueError: x\n"
    assert raw.write_errors(waves[1], tmp_path) == []  # written once


def test_a_run_is_exported_under_a_safe_name_for_ci(tmp_path: Path) -> None:
    run_dir = tmp_path / "reports" / "20261128T070005Z-x"
    run_dir.mkdir(parents=True)
    (run_dir / "report.md").write_text("# r\n")
    dest = export(run_dir, tmp_path / "artifacts", "tests/test_a.py::test_b[1]")
    assert dest == tmp_path / "artifacts" / "tests-test_a.py-test_b-1" / run_dir.name
    assert (dest / "report.md").read_text() == "# r\n"
