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

from conftest import SUPPORT, cli_run, run_cli, wait_for
from gvlstress.supervisor import delays
from gvlstress.supervisor.delays import Region, Table, parse_maps, read_table, site_of, sites_waited_at
from gvlstress.supervisor.delays import library as delay_library

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


@pytest.mark.slow
def test_the_layer_delays_a_seeded_share_of_a_rayon_pools_calls() -> None:
    lib = str(delay_library())
    got = batches({"LD_PRELOAD": lib, "GVLSTRESS_DELAYS": "7:20000:200", "RAYON_NUM_THREADS": "4"})
    assert got["calls"] > 100  # futex waits/wakes, sched_yield, mutex locks of a real pool
    assert 0 < got["delays"] < got["calls"]
    assert got["delays"] <= got["delayed_us"] <= 200 * got["delays"]


@pytest.mark.slow
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
    assert all(not any(k.startswith("GVLSTRESS_DELAY") for k in s["env"]) for s in seen)


@pytest.mark.slow
def test_delays_with_forked_workers_is_one_line(tmp_path: Path) -> None:
    r = run_cli(["run", "--delays", "1", "--start-method", "fork", "--report-dir", str(tmp_path)], timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: --delays needs start_method = spawn (got fork)")


# -- learned placement ----------------------------------------------------------------------

MAPS = """\
5581a0000000-5581a0001000 r--p 00000000 08:01 1234  /usr/bin/python3.11
5581a0001000-5581a0003000 r-xp 00001000 08:01 1234  /usr/bin/python3.11
7f0000000000-7f0000021000 rw-p 00000000 00:00 0
7f0000100000-7f0000110000 r--p 00000000 08:01 99  /opt/lib/_native.abi3.so
7f0000110000-7f0000190000 r-xp 00010000 08:01 99  /opt/lib/_native.abi3.so
7f0000200000-7f0000201000 r-xp 00000000 08:01 7  /opt/lib/libgvldelay.so
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0  [stack]
"""


@pytest.mark.parametrize(
    ("address", "site"),
    [
        (0x7F0000110000 + 0x4E56, "_native.abi3.so+0x14e56"),  # from the module's first mapping
        (0x5581A0001234, "python3.11+0x1234"),
        (0x7F0000000010, None),  # anonymous memory: no module
        (0x7FFD00000010, None),  # [stack]
        (0x10, None),  # unmapped
    ],
)
def test_a_code_address_is_named_as_module_and_offset(address: int, site: str | None) -> None:
    assert site_of(address, parse_maps(MAPS)) == site


def test_the_sites_waited_at_are_the_callers_once_each_never_the_layers_own() -> None:
    maps = parse_maps(MAPS)
    assert maps[0] == Region(0x5581A0000000, 0x5581A0001000, 0, "/usr/bin/python3.11")
    table = Table(
        calls=10,
        delays=1,
        delayed_us=5,
        hot_calls=0,
        hot_delays=0,
        waiting=(
            (11, 0x7F0000114E56),
            (12, 0x7F0000114E56),  # two threads at one site: one site
            (13, 0x7F0000200010),  # inside the layer: not a caller's site
            (14, 0x7F0000000010),  # anonymous (JIT, say): unnamed
            (15, 0x5581A0001234),
        ),
    )
    assert sites_waited_at(table, maps) == ("_native.abi3.so+0x14e56", "python3.11+0x1234")


BLOCKED = """
import threading
lock = threading.Lock()
lock.acquire()
print("ready", flush=True)
lock.acquire()  # blocks for ever, in CPython's semaphore wait
"""

HANDOFFS = """
import queue, threading
q = queue.Queue()
def give():
    for i in range(300):
        q.put(i)
t = threading.Thread(target=give)
t.start()
for _ in range(300):
    q.get()  # waits on the queue's condition: CPython's lock wait, from one call site
t.join()
"""


def layer_env(table: Path, sites: str | None = None) -> dict[str, str]:
    env = {
        **os.environ,
        "LD_PRELOAD": str(delay_library()),
        "GVLSTRESS_DELAYS": "5:3000:50",
        "GVLSTRESS_DELAY_TABLE": str(table),
    }
    if sites is not None:
        env["GVLSTRESS_DELAY_SITES"] = sites
    return env


def blocked_site(tmp_path: Path) -> str:
    """Where a real CPython thread blocked on a lock waits, as the harness learns it."""
    proc = subprocess.Popen(
        [sys.executable, "-c", BLOCKED], env=layer_env(tmp_path), stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        table_file = tmp_path / f"{proc.pid}.sites"
        table = wait_for(
            lambda: (t := read_table(table_file)) is not None and t.waiting and t,
            10,
            "the blocked thread's wait in the table",
        )
        (site,) = sites_waited_at(table, parse_maps(Path(f"/proc/{proc.pid}/maps").read_text()))
        return str(site)
    finally:
        proc.kill()
        proc.wait(timeout=10)


@pytest.mark.slow
def test_a_blocked_threads_call_site_is_read_from_the_live_table(tmp_path: Path) -> None:
    site = blocked_site(tmp_path)
    module, _, offset = site.partition("+0x")
    assert "python" in module  # the interpreter (or libpython) makes the call, not libc or the layer
    assert int(offset, 16) > 0


def handoffs(table: Path, sites: str) -> Table:
    subprocess.run([sys.executable, "-c", HANDOFFS], env=layer_env(table, sites), timeout=120, check=True)
    (f,) = table.glob("*.sites")
    got = read_table(f)
    f.unlink()
    assert got is not None
    return got


@pytest.mark.slow
def test_calls_from_a_learned_site_take_the_hot_rate_and_no_other_does(tmp_path: Path) -> None:
    learn = tmp_path / "learn"
    learn.mkdir()
    site = blocked_site(learn)
    module, _, offset = site.partition("+0x")
    hot = handoffs(tmp_path, f"1000000:0:{site}")  # every call from exactly that site
    assert hot.hot_calls > 0
    assert hot.hot_delays == hot.hot_calls
    assert hot.calls > hot.hot_calls  # the rest keep the sparse rate
    far = handoffs(tmp_path, f"1000000:0:{module}+0x{int(offset, 16) + 4096:x}")  # the same module, elsewhere
    assert far.hot_calls == 0
    assert far.calls > 0
    near = handoffs(tmp_path, f"1000000:4096:{module}+0x{int(offset, 16) + 4096:x}")  # ...unless near counts
    assert near.hot_calls > 0
    assert handoffs(tmp_path, "1000000:0:libnothing.so+0x10").hot_calls == 0


LEARN_ARGS = [
    "run",
    "--fault",
    "lock_across_par_iter",
    "--fault-rate",
    "1",
    "--workers",
    "1",
    "--rayon",
    "4",
    "--delays",
    "3",
]


@pytest.mark.slow
def test_a_hang_teaches_the_next_wave_and_the_next_run_where_to_delay(tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    run = cli_run([*LEARN_ARGS, "--waves", "2"], 1, tmp_path / "one", GVLSTRESS_CACHE=cache)
    first, second = (w["amplifiers"]["delays"] for w in run["waves"])
    assert [w["verdict"] for w in run["waves"]] == ["deadlock", "deadlock"]
    assert first["sites"] == []  # nothing learned yet
    assert first["hot_calls"] == 0
    native = [s for s in first["learned"] if s.startswith("_native")]
    assert native, first["learned"]  # the fixture's lock waits, in the fixture's own module
    assert len(first["learned"]) <= delays.MAX_SITES
    assert sorted(second["sites"]) == first["learned"]
    assert second["hot_calls"] > 0  # the second wave's hung threads reached those sites again
    assert first["calls"] > 0
    assert first["workers_reporting"] == 1
    (report,) = (tmp_path / "one").glob("*/report.md")
    assert "learned _native" in report.read_text()
    # the next run of the same target starts where this one left off...
    again = cli_run([*LEARN_ARGS, "--waves", "1"], 1, tmp_path / "two", GVLSTRESS_CACHE=cache)
    assert sorted(again["waves"][0]["amplifiers"]["delays"]["sites"]) == first["learned"]
    # ...and a module rebuilt since (other code at those offsets) is forgotten
    (memory,) = Path(cache, "delays").glob("*.json")
    kept = json.loads(memory.read_text())["sites"]
    assert set(kept) == set(first["learned"])
    for entry in kept.values():
        entry["id"][1] += 1  # as if the module's mtime changed
    memory.write_text(json.dumps({"sites": kept}))
    assert delays.load_memory(memory) == {}


@pytest.mark.slow
def test_delays_without_the_layer_installed_is_one_line_before_anything_starts(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "gvlstress_native"  # a native package built without the layer
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("")
    r = run_cli(
        ["run", "--delays", "1", "--report-dir", str(tmp_path / "reports")],
        timeout=60,
        PYTHONPATH=os.pathsep.join([str(shadow.parent), str(SUPPORT)]),
    )
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: --delays: the delay layer is not installed")
    assert "pip install ./native" in line
    assert not (tmp_path / "reports").exists() or not any((tmp_path / "reports").iterdir())
