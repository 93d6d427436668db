"""Inputs that must never block, stall or crash gvlstress: FIFOs and huge numbers where a file is
expected, kernel threads and vanishing processes where a process is expected."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from conftest import run_cli
from gvlstress.api.inspecting import _inspect as look
from gvlstress.errors import UsageError

pytestmark = pytest.mark.slow


def _fifo_run_dir(tmp_path: Path, name: str) -> Path:
    d = tmp_path / name
    d.mkdir()
    os.mkfifo(d / "run.json")  # nobody will ever write to it: a blocking open would wait forever
    return d


@pytest.mark.parametrize("command", ["report", "merge", "compare"])
def test_a_run_json_that_is_a_fifo_is_refused_at_once(tmp_path: Path, command: str) -> None:
    a, b = _fifo_run_dir(tmp_path, "a"), _fifo_run_dir(tmp_path, "b")
    args = {
        "report": ["report", str(a)],
        "merge": ["merge", str(a), str(b), "--output", str(tmp_path / "m")],
        "compare": ["compare", str(a), str(b), "--output", str(tmp_path / "c.md")],
    }[command]
    r = run_cli(args, timeout=30)  # the deadline is the test: a blocking read never returns
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert "run.json: cannot read (not a regular file)" in line


def test_a_scenario_file_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "s.toml")
    r = run_cli(
        ["run", "--scenario", str(tmp_path / "s.toml"), "--report-dir", str(tmp_path / "r")], timeout=30
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert "cannot read scenario file (not a regular file)" in r.stderr


def test_a_run_json_with_a_5000_digit_number_is_a_usage_error(tmp_path: Path) -> None:
    d = tmp_path / "run"
    d.mkdir()
    (d / "run.json").write_text('{"schema": "gvlstress.run/2", "waves": [], "x": ' + "9" * 5000 + "}")
    for args in (["report", str(d)], ["compare", str(d), str(d), "--output", str(tmp_path / "c.md")]):
        r = run_cli(args, timeout=30)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "not a readable JSON file" in r.stderr


def test_inspect_refuses_a_kernel_thread_in_one_line(tmp_path: Path) -> None:
    kthreadd = next(p for p in psutil.process_iter(["name", "ppid"]) if p.info["name"] == "kthreadd")
    r = run_cli(["inspect", str(kthreadd.pid), "--report-dir", str(tmp_path)], timeout=30)
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert "is a kernel thread" in line


def test_inspect_says_when_the_process_exited_during_the_look(tmp_path: Path) -> None:
    # GIVEN a real process, seen alive, that exits before /proc is sampled
    proc = subprocess.Popen(["sleep", "30"])
    seen = psutil.Process(proc.pid)
    proc.kill()
    proc.wait(10)
    # THEN the look says so in one line, instead of an empty report and exit 0
    run_dir = tmp_path / "look"
    run_dir.mkdir()
    with pytest.raises(UsageError, match=f"process {proc.pid} exited while it was being inspected"):
        look([seen], False, run_dir, dt.datetime.now(dt.UTC), ("gvlstress",), 0.5)


def test_a_huge_native_option_is_a_usage_error_not_a_crash(tmp_path: Path) -> None:
    for opt, says in (("batch_size=1000000000000", "batch_size must be an integer in 1..65536"),
                      ("region_len=100000000000", "region_len must be an integer in 1..16777216")):  # fmt: skip
        r = run_cli(["run", "-o", opt, "--report-dir", str(tmp_path)], timeout=30)
        assert r.returncode == 2, r.stdout + r.stderr
        assert says in r.stderr
    assert not any(tmp_path.glob("*/run.json"))


@pytest.fixture
def full_fs(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs (root only), filled but for a little."""
    import subprocess

    mnt = tmp_path / "full"
    mnt.mkdir()
    if (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)], check=False, capture_output=True
        ).returncode
        != 0
    ):
        pytest.skip("cannot mount a tmpfs here (needs root and mount rights)")
    try:
        with contextlib.suppress(OSError), (mnt / "filler").open("wb") as fh:
            fh.write(b"x" * (256 * 1024 - 24 * 1024))
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False, capture_output=True)


def test_a_report_dir_that_fills_up_is_one_line_exit_4_without_partial_files(full_fs: Path) -> None:
    """The disk fills once the run has begun (its first run.json written, the little room left
    then taken): no later file fits, report.md's fallback neither (how much room a smaller
    report.md once found was luck)."""
    import time

    from conftest import GVL, cli_env

    reports = full_fs / "reports"
    argv = ["run", "--fault", "lock_across_par_iter", "--workers", "2", "--rayon", "16", "--waves", "1"]
    proc = subprocess.Popen(
        [*GVL, *argv, "--report-dir", str(reports)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not any(reports.glob("*/run.json")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # a poll of the run directory, with a deadline
        with contextlib.suppress(OSError), (full_fs / "rest").open("wb") as fh:
            while True:  # every byte left, until the disk refuses
                fh.write(b"x" * 4096)
                fh.flush()
        out, err = proc.communicate(timeout=240)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    r = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    assert r.returncode == 4, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: cannot write or read")
    assert "No space left on device" in line
    # the deadlock found before the disk filled is said too, not only on stdout
    assert "before that, the run found deadlock in 1 of 1 wave(s)" in line, line
    leftovers = [p for p in reports.rglob(".*") if p.is_file()]
    assert leftovers == []  # atomic writes: no half-written temporary file stays behind


def _example_run(tmp_path: Path, name: str) -> Path:
    import shutil

    from conftest import ROOT

    d = tmp_path / name
    shutil.copytree(ROOT / "reports" / "examples" / "lock-across-par-iter", d)
    return d


@pytest.mark.parametrize("junk", ["random bytes", "utf-16"])
@pytest.mark.parametrize("command", ["report", "merge", "compare"])
def test_a_run_json_that_is_not_utf8_is_one_line_exit_2(tmp_path: Path, command: str, junk: str) -> None:
    # GIVEN a run directory whose run.json is not UTF-8, beside a good one
    import json
    import random

    bad, good = _example_run(tmp_path, "bad"), _example_run(tmp_path, "good")
    doc = json.loads((bad / "run.json").read_text())
    data = random.Random(33).randbytes(4096) if junk == "random bytes" else json.dumps(doc).encode("utf-16")
    (bad / "run.json").write_bytes(data)
    args = {
        "report": ["report", str(bad), "--force"],
        "merge": ["merge", str(bad), str(good), "--output", str(tmp_path / "m")],
        "compare": ["compare", str(bad), str(good), "--output", str(tmp_path / "c.md")],
    }[command]
    # WHEN it is read
    r = run_cli(args, timeout=60)
    # THEN one line names the file and what is wrong with it: a usage error, not a bug
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert f"{bad}/run.json: not a gvlstress JSON file (not UTF-8" in line, line


@pytest.mark.parametrize("command", ["report", "merge"])
def test_a_run_with_300000_warnings_is_reported_within_the_limit(tmp_path: Path, command: str) -> None:
    # GIVEN a run (no hung worker) whose run.json holds 300,000 warnings
    import json

    from gvlstress.reporters.markdown import REPORT_LIMIT

    d = _example_run(tmp_path, "warned")
    doc = json.loads((d / "run.json").read_text())
    for wave in doc["waves"]:  # no hung worker: nothing to move to stacks.md
        for w in wave["workers"]:
            w.update(verdict="ok", diagnosis=None, capture=None)
        wave["verdict"] = "ok"
    doc["warnings"] = [f"warning number {i}" for i in range(300_000)]
    (d / "run.json").write_text(json.dumps(doc))
    args = {
        "report": ["report", str(d), "--force"],
        "merge": ["merge", str(d), "--output", str(tmp_path / "m")],
    }
    # WHEN its report is rendered
    r = run_cli(args[command], timeout=120)
    # THEN it is written, within the limit, saying how many warnings it does not show
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    text = ((d if command == "report" else tmp_path / "m") / "report.md").read_text()
    assert len(text) <= REPORT_LIMIT
    assert "> ... and 299980 more warnings (all in run.json)" in text
