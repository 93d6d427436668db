"""Paths the console shows: usable, with no secret spelled out (issue 37: `hunt --shrink` under a
report directory that looked like a secret printed `<redacted>` paths that did not exist, and
handed shrink one of them)."""

from __future__ import annotations

import glob
from pathlib import Path

from gvlstress.reporters.console.paths import shown_path
from gvlstress.system.redact import REDACTED

SECRET = "token=hunter2hunter2XYZ"
BAZEL = "0123456789abcdef0123456789abcdef"


def test_a_path_with_nothing_secret_is_shown_as_it_is(tmp_path: Path) -> None:
    run = tmp_path / "reports" / "20261127T010101Z-adhoc"
    run.mkdir(parents=True)
    assert shown_path(str(run)) == str(run)


def test_a_secret_looking_folder_becomes_a_pattern_that_opens_this_run_only(tmp_path: Path) -> None:
    # GIVEN a run under a token=... folder inside a Bazel-like output base (32 hex digits)
    run = tmp_path / SECRET / BAZEL / "20261127T010101Z-adhoc"
    run.mkdir(parents=True)
    (run / "report.md").write_text("x")
    shown = shown_path(str(run))
    # THEN neither is spelled out, and the pattern names this run and no other
    assert "hunter2" not in shown
    assert BAZEL not in shown
    assert REDACTED not in shown
    assert glob.glob(shown + "/report.md") == [str(run / "report.md")]


def test_a_pattern_that_would_name_two_runs_is_not_shown_the_path_is_redacted(tmp_path: Path) -> None:
    for secret in (SECRET, "token=another2another2XYZ"):
        (tmp_path / secret / "run").mkdir(parents=True)
    shown = shown_path(str(tmp_path / SECRET / "run"))
    assert shown == f"{tmp_path}/token={REDACTED}/run"
