"""`gvlstress sweep`: a real 2 x 2 grid writes its table, its heatmap PNG and one run per cell."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from conftest import run_cli
from gvlstress.campaign import sweep
from gvlstress.campaign.stats import rate
from gvlstress.errors import UsageError
from gvlstress.model.campaign import SweepCell, SweepResult
from gvlstress.reporters.markdown import render_sweep
from gvlstress.scenario import Scenario


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_two_by_two_sweep_writes_its_table_and_heatmap(tmp_path: Path) -> None:
    r = run_cli(
        [
            "sweep",
            "--workers",
            "1,2",
            "--rayon",
            "2,4",
            "--waves",
            "1",
            "--iterations",
            "5",
            "--report-dir",
            str(tmp_path),
        ]
    )
    assert r.returncode == 0, r.stdout + r.stderr
    (sweep_dir,) = tmp_path.iterdir()
    png = sweep_dir / "heatmap.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 5000
    md = (sweep_dir / "report.md").read_text()
    assert "![hangs per 1000 batches](heatmap.png)" in md
    rows = [line for line in md.splitlines() if line.startswith("| ") and "none" in line]
    assert [tuple(line.split(" | ")[:2]) for line in rows] == [
        ("| 1", "2"),
        ("| 1", "4"),
        ("| 2", "2"),
        ("| 2", "4"),
    ]
    assert all("0/1" in line for line in rows)
    cells = sorted(p.name for p in (sweep_dir / "cells").iterdir())
    assert len(cells) == 4
    assert all((sweep_dir / "cells" / c / "run.json").is_file() for c in cells)
    assert "sweep cell 4/4: 2 x 4, none" in r.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "1,x"], "--workers '1,x': expected whole numbers"),
        (["--rayon", "2,2"], "--rayon '2,2': 1 to 12 distinct numbers"),
        (["--workers", "1,10000"], "--workers 10000: must be in 1..512, got 10000"),
        (["--amplifiers", "none,turbo"], "--amplifiers 'none,turbo': unknown or repeated ['turbo']"),
    ],
)
def test_bad_grids_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    r = run_cli(["sweep", *args, "--report-dir", str(tmp_path)], timeout=60)
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith(f"gvlstress: error: {message}")
    assert not any(tmp_path.iterdir())  # nothing ran


def test_the_grid_and_its_presets() -> None:
    grid = sweep.cells(Scenario(name="s"), (1, 5), (2,), ("none", "chaos+burners"))
    assert [(w, r, a) for w, r, a, _ in grid] == [
        (1, 2, "none"),
        (5, 2, "none"),
        (1, 2, "chaos+burners"),
        (5, 2, "chaos+burners"),
    ]
    last = grid[-1][3]
    assert (last.workers, last.rayon, last.chaos, last.burners, last.name) == (
        5,
        2,
        1,
        2,
        "s-w5-r2-chaos+burners",
    )
    with pytest.raises(UsageError):
        sweep.parse_list("0,1", "--workers", "workers")


@pytest.mark.parametrize(
    ("text", "option", "setting"),
    [("1,10000", "--workers", "workers"), ("2,5000", "--rayon", "rayon"), ("1,2,2", "--workers", "workers")],
)
def test_a_sweep_axis_takes_the_bounds_run_enforces(text: str, option: str, setting: str) -> None:
    # the bound that stops `run --workers 10000` stops a sweep cell of 10,000 workers too
    with pytest.raises(UsageError, match=option):
        sweep.parse_list(text, option, setting)


def test_a_sweep_report_without_a_heatmap_says_why() -> None:
    cell = SweepCell(1, 2, "none", "/r/c1", 3, 1, 600, 0.5, rate(1, 600), (2.0, 0.05, 11.1))
    result = SweepResult((cell,), (1,), (2,), ("none",), Scenario(), "/r", None)
    md = render_sweep(result)
    assert "(no heatmap: matplotlib is not installed here: `pip install 'gvlstress[plot]'`)" in md
    assert "| 1 | 2 | none | 1/3 | 600 | 1.67 [" in md
    assert "interrupted" not in md
    assert "**interrupted**" in render_sweep(dataclasses.replace(result, interrupted=True))
