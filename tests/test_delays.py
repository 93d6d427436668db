"""The delay layer (`native/preload/gvldelay.c`, `--delays SEED`): built with the native
loader, preloaded only into workers, interposing real calls of a real rayon pool, off unless
configured, and gone from a worker's own children."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import cli_run, run_cli
from gvlstress.supervisor.amplifiers import delay_library

pytestmark = pytest.mark.timeout(180)

BATCHES = """
import ctypes, json, sys
import gvlstress_native as g
loader = g.Loader(fault="none", ref_len=200_000, region_len=4096, batch_size=64)
for _ in range(int(sys.argv[1])):
    loader.next_batch()
stats = (ctypes.c_uint64 * 3)()
try:
    ctypes.CDLL(sys.argv[2]).gvldelay_stats(stats)  # the mapped layer's own counters
except OSError:
    pass
print(json.dumps({"calls": stats[0], "delays": stats[1], "delayed_us": stats[2]}))
"""


def batches(env: dict[str, str], n: int = 40) -> dict[str, int]:
    lib = delay_library()
    assert lib is not None, "pip install ./native builds the delay layer beside the loader"
    out = subprocess.run(
        [sys.executable, "-c", BATCHES, str(n), str(lib)],
        env={**os.environ, **env},
        capture_output=True,
        timeout=120,
        check=True,
    )
    counts: dict[str, int] = json.loads(out.stdout)
    return counts


def test_the_layer_delays_a_seeded_share_of_a_rayon_pools_calls() -> None:
    lib = str(delay_library())
    got = batches({"LD_PRELOAD": lib, "GVLSTRESS_DELAYS": "7:20000:200", "RAYON_NUM_THREADS": "4"})
    assert got["calls"] > 100  # futex waits/wakes, sched_yield, mutex locks of a real pool
    assert 0 < got["delays"] < got["calls"]
    assert got["delays"] <= got["delayed_us"] <= 200 * got["delays"]


@pytest.mark.parametrize("spec", [None, "7:abc:200", "7:2000000:200", "7:20000:0", ""])
def test_unconfigured_or_malformed_it_lets_every_call_straight_through(spec: str | None) -> None:
    env = {"LD_PRELOAD": str(delay_library()), "RAYON_NUM_THREADS": "4"}
    if spec is not None:
        env["GVLSTRESS_DELAYS"] = spec
    assert batches(env) == {"calls": 0, "delays": 0, "delayed_us": 0}


@pytest.mark.slow
def test_a_run_with_delays_maps_the_layer_in_every_worker(report_dir: Path) -> None:
    run = cli_run(
        ["run", "--workers", "2", "--rayon", "4", "--waves", "2", "--duration", "2", "--delays", "4"],
        0,
        report_dir,
    )
    for wave in run["waves"]:
        amp = wave["amplifiers"]
        assert amp["not_applied"] == []
        assert amp["delays"]["workers_loaded"] == amp["delays"]["workers"] == 2
        assert amp["delays"]["seed"] == 4
        assert wave["verdict"] == "ok"  # delayed, never a false hang


@pytest.mark.slow
def test_a_workers_own_children_do_not_inherit_the_layer(report_dir: Path) -> None:
    cli_run(
        [
            "run",
            "--target",
            "spawner:batches",
            "-o",
            "mode=env",
            "-o",
            f"out={report_dir}",
            "--workers",
            "2",
            "--waves",
            "1",
            "--delays",
            "4",
        ],
        0,
        report_dir,
    )
    seen = [json.loads(p.read_text()) for p in report_dir.glob("child-env-*.json")]
    assert len(seen) == 2
    assert all(s["parent_has_layer"] for s in seen)  # the worker had it...
    assert all("libgvldelay" not in s["env"].get("LD_PRELOAD", "") for s in seen)  # ...its child does not
    assert all("GVLSTRESS_DELAYS" not in s["env"] for s in seen)


def test_delays_with_forked_workers_is_one_line(tmp_path: Path) -> None:
    r = run_cli(["run", "--delays", "1", "--start-method", "fork", "--report-dir", str(tmp_path)], timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: --delays needs start_method = spawn (got fork)")
