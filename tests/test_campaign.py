"""Campaigns: shard parsing, shards of real runs merged, the odd-host test, the planner."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pytest

import builders
from conftest import load_run, run_cli
from gvlstress.campaign import shards as campaign
from gvlstress.errors import UsageError
from gvlstress.model import RunResult, Shard, Verdict


@pytest.mark.parametrize(
    ("text", "env", "shard"),
    [
        ("0/2", {}, Shard(0, 2)),
        (" 3 / 4 ", {}, Shard(3, 4)),
        (
            "auto",
            {"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_COUNT": "3"},
            Shard(1, 3),
        ),
        ("auto", {"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"}, Shard(0, 2)),
        ("AUTO", {"JOB_COMPLETION_INDEX": "7", "GVLSTRESS_SHARD_COUNT": "8"}, Shard(7, 8)),
    ],
)
def test_shard_parsing(text: str, env: dict[str, str], shard: Shard) -> None:
    assert campaign.parse_shard(text, env) == shard


@pytest.mark.parametrize(
    ("text", "env", "message"),
    [
        ("2/2", {}, "out of range"),
        ("-1/2", {}, "out of range"),
        ("1/0", {}, "out of range"),
        ("x/2", {}, "expected a whole number"),
        ("3", {}, "expected I/N"),
        ("auto", {}, "no Slurm array"),
        ("auto", {"JOB_COMPLETION_INDEX": "1"}, "not the number of shards"),
    ],
)
def test_bad_shards_are_usage_errors(text: str, env: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        campaign.parse_shard(text, env)


def _shard_run(tmp_path: Path, spec: str, *extra: str) -> dict[str, Any]:
    out = tmp_path / spec.replace("/", "of")
    r = run_cli(
        ["run", "--workers", "2", "--rayon", "2", "--waves", "5", "--iterations", "4", "--seed", "11",
         "--shard", spec, *extra, "--report-dir", str(out)]
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    return load_run(out)


@pytest.mark.slow
@pytest.mark.ci_seconds(35)
def test_two_shards_merge_into_the_whole_campaign(tmp_path: Path) -> None:
    a = _shard_run(tmp_path, "0/2")
    b = _shard_run(tmp_path, "1/2")
    assert [w["index"] for w in a["waves"]] == [0, 2, 4]
    assert [w["index"] for w in b["waves"]] == [1, 3]
    assert a["shard"] == {"index": 0, "count": 2}
    assert a["environment"]["host"]
    dirs = [str(next((tmp_path / d).iterdir())) for d in ("0of2", "1of2")]
    merged_dir = tmp_path / "merged"
    r = run_cli(["merge", *dirs, "--output", str(merged_dir)])
    assert r.returncode == 0, r.stdout + r.stderr
    merged = json.loads((merged_dir / "run.json").read_text())
    assert [w["index"] for w in merged["waves"]] == [0, 1, 2, 3, 4]
    assert [w["shard"] for w in merged["waves"]] == [0, 1, 0, 1, 0]
    seeds = [w["seed"] for w in merged["waves"]]
    assert len(set(seeds)) == 5
    batches = sum(w["iterations"] for wave in merged["waves"] for w in wave["workers"])
    assert batches == 5 * 2 * 4
    assert [h["shard"] for h in merged["hosts"]] == [{"index": 0, "count": 2}, {"index": 1, "count": 2}]
    assert all(not h["out_of_line"] for h in merged["hosts"])
    md = (merged_dir / "report.md").read_text()
    assert "## Hosts" in md
    assert "none out of line" in md
    assert "shard 0/2 on" in r.stdout
    # the same merge again (inputs in another order, one given twice) writes the same files
    before = {p.name: p.read_bytes() for p in merged_dir.iterdir() if p.is_file()}
    again = run_cli(["merge", *dirs, "--output", str(merged_dir)])
    assert again.returncode == 0
    assert {p.name: p.read_bytes() for p in merged_dir.iterdir() if p.is_file()} == before
    shuffled = run_cli(["merge", dirs[1], dirs[0], dirs[1], "--output", str(tmp_path / "m2")])
    assert shuffled.returncode == 0
    other = json.loads((tmp_path / "m2" / "run.json").read_text())
    assert other["waves"] == merged["waves"]
    assert other["hosts"] == merged["hosts"]
    # one wave alone, from its global index: the same seed as in the campaign
    alone = _shard_run(tmp_path, "3/5")
    (wave,) = alone["waves"]
    assert (wave["index"], wave["seed"]) == (3, seeds[3])


@pytest.mark.slow
def test_merge_refuses_other_scenarios_unless_mixed(tmp_path: Path) -> None:
    _shard_run(tmp_path, "0/2")
    _shard_run(tmp_path, "1/2", "--iterations", "3")
    dirs = [str(next((tmp_path / d).iterdir())) for d in ("0of2", "1of2")]
    r = run_cli(["merge", *dirs, "--output", str(tmp_path / "m")])
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: the runs are of different scenarios (iterations: 4 vs 3)")
    assert "--mixed" in line
    ok = run_cli(["merge", *dirs, "--output", str(tmp_path / "m"), "--mixed"])
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "merged runs differ: iterations: 4 vs 3" in ok.stdout


@pytest.mark.slow
def test_merge_of_nothing_readable_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    r = run_cli(["merge", str(tmp_path / "empty"), "--output", str(tmp_path / "m")])
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def _run(hung: int, clean: int, host: str, index: int) -> RunResult:
    waves = tuple(
        builders.wave(i * 4 + index, Verdict.DEADLOCK if i < hung else Verdict.OK, shard=index)
        for i in range(hung + clean)
    )
    return builders.run(waves, host, Shard(index, 4), started_at=f"2026-11-22T00:00:0{index}")


def test_one_odd_host_is_flagged_and_even_hosts_are_not() -> None:
    odd = [_run(0, 20, "a", 0), _run(0, 20, "b", 1), _run(9, 11, "c", 2), _run(1, 19, "d", 3)]
    flags = {h.environment.host: (h.out_of_line, h.p_value) for h in campaign.hosts(odd)}
    assert flags["c"][0]
    assert flags["c"][1] < 0.05 / 4
    assert not any(flags[h][0] for h in "abd")
    even = [_run(1, 19, h, i) for i, h in enumerate("abcd")]
    assert not any(h.out_of_line for h in campaign.hosts(even))
    merged = campaign.merge(odd, "/m", ("gvlstress", "merge"))
    assert merged.hosts == campaign.hosts(odd)
    assert len(merged.waves) == 80
    assert merged.summary.hung == 10


@pytest.mark.parametrize(
    ("rate", "confidence", "n"),
    [(0.01, 0.95, 299), (0.001, 0.95, 2995), (0.05, 0.95, 59), (0.01, 0.99, 459), (0.5, 0.5, 1)],
)
def test_clean_launches_match_the_zero_failure_formula(rate: float, confidence: float, n: int) -> None:
    assert campaign.clean_launches(rate, confidence) == n
    # n is the least count that works: (1 - rate)^n <= 1 - confidence < (1 - rate)^(n - 1)
    assert (1 - rate) ** n <= 1 - confidence + 1e-12
    assert (1 - rate) ** (n - 1) > 1 - confidence
    assert n == math.ceil(math.log(1 - confidence) / math.log(1 - rate) - 1e-9)


@pytest.mark.slow
def test_plan_prints_the_waves_and_what_they_cost_on_a_measured_run(tmp_path: Path) -> None:
    run = _shard_run(tmp_path, "0/1")
    per_wave = sum(w["iterations"] for w in run["waves"][0]["workers"])
    wall = sum(w["wall_s"] for w in run["waves"])
    r = run_cli(["plan", "--rate", "0.01", "--from", run["run_dir"], "--hosts", "4"])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "299 clean waves" in r.stdout
    assert f"batches: {299 * per_wave:,}" in r.stdout
    assert f"at {3600 * len(run['waves']) / wall:,.0f} waves/hour" in r.stdout
    assert "on 4 hosts (--shard I/4)" in r.stdout
    assert "already has 5 of them" in r.stdout
    bare = run_cli(["plan", "--rate", "0.001", "--confidence", "0.99"])
    assert "4603 clean waves" in bare.stdout
    bad = run_cli(["plan", "--rate", "1.5"])
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "gvlstress: error: --rate and --confidence must be between 0 and 1 (exclusive)"
    ]


def test_a_run_given_twice_counts_once_but_two_runs_of_the_same_second_both_count() -> None:
    a = _run(1, 3, "h", 0)
    twin = dataclasses.replace(a, run_dir="/elsewhere/copy")  # the same run, copied
    other = dataclasses.replace(  # started the same second on the same host, but another run
        a, waves=tuple(dataclasses.replace(w, wall_s=w.wall_s + 0.25) for w in a.waves)
    )
    assert len(campaign.merge([a, twin], "/m", ("gvlstress", "merge")).waves) == 4
    merged = campaign.merge([a, other], "/m", ("gvlstress", "merge"))
    assert len(merged.waves) == 8
    assert merged.waves[4].origin is not None  # same global indices: renumbered, origin kept
