"""Parse step alone: scenario files, overrides, validation messages; CLI error funnel and exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import run_cli
from gvlstress.cli.main import cli
from gvlstress.cli.options import scenario_from_options
from gvlstress.errors import UsageError
from gvlstress.scenario import Scenario
from gvlstress.scenario_sources import list_scenarios, read_scenario_file, resolve


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(text)
    return p


def test_cli_overrides_file_and_file_overrides_defaults(tmp_path: Path) -> None:
    path = write(tmp_path, "[scenario]\nworkers = 3\nrayon = 8\n[target]\nbatch_size = 16\n")
    s = resolve(str(path), {"rayon": 2})
    assert (s.workers, s.rayon, s.waves) == (3, 2, Scenario().waves)
    assert dict(s.options) == {"batch_size": 16}
    assert s.name == "s"
    assert s.source == str(path)


def test_target_options_merge_over_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[scenario]\nworkers = 1\n[target]\nbatch_size = 16\nslow_ms = 5\n")
    s = scenario_from_options(str(path), ("slow_ms=2500",), workers=None)
    assert dict(s.options) == {"batch_size": 16, "slow_ms": 2500}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[scenario]\nworkers = 'five'\n", "[scenario] workers: must be a number"),
        ("[scenario]\nworkers = 0\n", "[scenario] workers: must be in 1..512"),
        ("[scenario]\nwrokers = 2\n", "unknown key(s) in [scenario]: wrokers"),
        ("[scenario\n", "not valid TOML"),
        ("[other]\nx = 1\n", "unknown table(s) other"),
        ("x = 1\n", "unknown table(s) x"),
        ("[target]\nx = 1\n", "missing [scenario] table"),
        ("[scenario]\nstart_method = 'thread'\n", "start_method: must be one of"),
        ("[scenario]\nfault_rate = 1.5\n", "fault_rate: must be in 0..1"),
        ("[scenario]\nstall = 10\ntimeout = 5\n", "must be shorter than timeout"),
    ],
)
def test_bad_scenario_files_name_file_and_key(tmp_path: Path, text: str, fragment: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(UsageError) as err:
        resolve(str(path), {})
    assert fragment in err.value.message


def test_bad_cli_value_names_the_option() -> None:
    with pytest.raises(UsageError, match=r"--workers: must be in 1\.\.512, got 0"):
        scenario_from_options(None, (), workers=0)


def test_every_shipped_scenario_is_valid() -> None:
    paths = list_scenarios()
    assert {p.stem for p in paths} >= {"healthy", "slow", "lock-across-par-iter"}
    for p in paths:
        raw = read_scenario_file(p)
        assert raw["description"], f"{p} has no description"
        resolve(str(p), {})


def test_scenarios_command_lists_one_line_each() -> None:
    result = CliRunner().invoke(cli, ["scenarios"])
    assert result.exit_code == 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == len(list_scenarios())
    assert any(line.startswith("healthy ") for line in lines)


def test_help_documents_exit_codes_and_examples() -> None:
    out = " ".join(CliRunner().invoke(cli, ["run", "--help"]).output.split())
    assert "gvlstress run --workers 5 --rayon 16" in out
    for code in ("0 nothing found", "1 a hang", "2 usage error", "3 a worker", "4 environment", "130"):
        assert code in out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (["run", "--workers", "abc"], 2, "'--workers': 'abc' is not a valid integer"),
        (["run", "--workers", "0"], 2, "--workers: must be in 1..512"),
        (["run", "--start-method", "thread"], 2, "--start-method"),
        (["run", "--fault", "nope"], 2, "unknown fault mode 'nope'"),
        (["run", "--target", "nope"], 2, "unknown target 'nope'"),
        (["run", "--scenario", "nope"], 2, "unknown scenario 'nope'"),
        (["run", "--scenario", "missing/file.toml"], 2, "scenario file not found"),
        (["run", "-o", "novalue"], 2, "expected KEY=VALUE"),
        (["run", "-o", "bogus=1"], 2, "unknown native option 'bogus'"),
        (["run", "--report-dir", "/proc/gvlstress-cannot-write"], 4, "not writable"),
        (["frobnicate"], 2, "No such command"),
    ],
)
def test_bad_input_is_one_line_and_a_documented_code(args: list[str], code: int, fragment: str) -> None:
    result = run_cli(args, timeout=60)
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0]
    assert lines[0].startswith("gvlstress")


@pytest.mark.slow
def test_malformed_scenario_file_via_cli(tmp_path: Path) -> None:
    path = write(tmp_path, "[scenario]\nworkers = [1, 2]\n")
    result = run_cli(["run", "--scenario", str(path)], timeout=60)
    assert result.returncode == 2
    line = result.stderr.strip()
    assert line.startswith(
        f"gvlstress: error: {path} [scenario] workers: must be a number, got [1, 2] (hint: "
    )
    assert "\n" not in line
