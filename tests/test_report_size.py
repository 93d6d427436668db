"""report.md pastes into an issue (GitHub's limit is 65,536 characters) for any backend and size."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import cli_run
from gvlstress.probes import native, tools

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.mark.parametrize("tool", ["pystack", "eu-stack", "gdb"])
@pytest.mark.parametrize("workers", [5, 16])
def test_report_md_stays_under_60k_characters(report_dir: Path, tool: str, workers: int) -> None:
    if tools.find(tool) is None:
        pytest.skip(f"{tool} is not installed here (CI installs it)")
    run = cli_run(
        [
            "run",
            "--fault",
            "lock_across_par_iter",
            "--workers",
            str(workers),
            "--rayon",
            "16",
            "--waves",
            "1",
            "--timeout",
            "240",
        ],
        1,
        report_dir,
        timeout=500,
        **{native.ENV_VAR: tool},
    )
    run_dir = next(report_dir.iterdir())
    md = (run_dir / "report.md").read_text()
    assert len(md) < 60_000, len(md)
    hung = [w for w in run["waves"][0]["workers"] if w["verdict"] == "deadlock"]
    assert len(hung) == workers
    assert all(w["capture"]["native"]["tool"] == tool for w in hung)
    stacks = run_dir / "stacks.md"
    if stacks.exists():
        assert "[stacks.md](stacks.md)" in md
        assert stacks.read_text().count("<details><summary>wave 1, slot") == workers
    else:
        assert md.count("<details><summary>wave 1, slot") == workers
