"""`inspect` on processes whose names are hostile: generated main-thread and thread names (any
bytes, not UTF-8 included), command lines, and paths (the directory of the FIFO its main thread
reads, the report directory) with secrets planted in them. Each look ends with exit 0, a
printable report.md and an inspect.json, nothing planted in any output, never 70. And a process
that ends during the look is said to have ended (and how), not to be idle; a stack tool's
control bytes are escaped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from hostile import REAL, SECRET, UNSAFE, hostile_process, leaked

pytestmark = pytest.mark.slow

names = st.binary(min_size=1, max_size=15).filter(lambda b: b"\x00" not in b)
dirs = st.binary(min_size=1, max_size=60).filter(
    lambda b: b"\x00" not in b and b"/" not in b and b.strip(b".")
)
args = st.lists(st.binary(max_size=80).filter(lambda b: b"\x00" not in b), max_size=4)


@settings(REAL, max_examples=4)  # each look takes its 2 s window and the stack tools
@given(comm=names, threads=st.lists(names, min_size=1, max_size=3), where=dirs, argv=args)
def test_inspect_reports_a_process_whatever_its_names_hold(
    tmp_path_factory: pytest.TempPathFactory,
    comm: bytes,
    threads: list[bytes],
    where: bytes,
    argv: list[bytes],
) -> None:
    # GIVEN a live process whose names, command line and paths hold hostile bytes and secrets
    tmp = tmp_path_factory.mktemp("inspect")
    planted = [*argv, f"--token={SECRET}".encode(), f"api_key={SECRET}".encode()]
    reports = tmp / f"api_key={SECRET}" / "r"
    with hostile_process(tmp, comm, threads, where + f" api_key={SECRET}".encode(), planted) as pid:
        # WHEN it is inspected
        r = run_cli(["inspect", str(pid), "--report-dir", str(reports)], timeout=120)
    # THEN exit 0 with its report and inspect.json, printable, and no secret anywhere
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert UNSAFE.search(r.stdout + r.stderr) is None
    (run_dir,) = [p.parent for p in reports.glob("*/inspect.json")]
    report = (run_dir / "report.md").read_bytes().decode("utf-8")
    assert UNSAFE.search(report) is None
    assert f"## pid {pid}" in report
    looked = json.loads((run_dir / "inspect.json").read_text())
    assert SECRET not in looked["run_dir"]
    assert leaked([*reports.rglob("*")], r.stdout, r.stderr) == []


def _killer_tool(tmp_path: Path) -> Path:
    """A py-spy that ends the process it is asked to look at (SIGTERM), as a process may end on
    its own while it is looked at: the look is then over something that is gone."""
    tool = tmp_path / "py-spy"
    tool.write_text(
        '#!/bin/sh\n[ "$1" = --version ] && { echo "py-spy 0.0.0"; exit 0; }\n'
        'while [ $# -gt 0 ]; do [ "$1" = --pid ] && pid=$2; shift; done\n'
        'kill -TERM "$pid"\necho "Error: gone" >&2\nexit 1\n'
    )
    tool.chmod(0o755)
    return tool


SLEEPER = "import time; print('ready', flush=True); time.sleep(600)"


@pytest.mark.parametrize("reaped", [False, True])
def test_a_process_that_ends_during_the_look_is_said_to_have_ended(tmp_path: Path, reaped: bool) -> None:
    # GIVEN a sleeping process that ends while it is looked at: left a zombie by its parent
    # (this test), or reaped at once by its parent (a shell waiting for it)
    cmd = [sys.executable, "-c", SLEEPER]
    parent = subprocess.Popen(
        ["sh", "-c", f'"{sys.executable}" -c "{SLEEPER}"; exit 0'] if reaped else cmd,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline().strip() == b"ready"
        pid = psutil.Process(parent.pid).children()[0].pid if reaped else parent.pid
        # WHEN it is inspected
        r = run_cli(
            ["inspect", str(pid), "--report-dir", str(tmp_path / "r")],
            timeout=120,
            GVLSTRESS_PYSPY=str(_killer_tool(tmp_path)),
        )
    finally:
        os.killpg(parent.pid, signal.SIGKILL)
        parent.wait(30)
    # THEN one line says it ended, and how: not "idle", exit 2 as for any process that is gone
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    how = "exited" if reaped else "was killed by SIGTERM"
    left = "its parent reaped it" if reaped else "a zombie its parent has not reaped"
    assert f"process {pid} {how} while it was being inspected ({left})" in line, line
    assert "idle" not in r.stdout


def test_a_stack_tools_control_bytes_are_escaped_in_the_report(tmp_path: Path) -> None:
    # GIVEN a native stack tool whose output holds NUL, ESC and BEL
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tool = bin_dir / "eu-stack"
    tool.write_text(
        '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -p ] && pid=$2; shift; done\n'
        "printf 'PID %s - process\\nTID %s:\\n#0  0x00007f0000000001 evil\\000nul\\033[31mred\\007bell"
        ' - /lib/libc.so.6\\n\' "$pid" "$pid"\n'
    )
    tool.chmod(0o755)
    proc = subprocess.Popen([sys.executable, "-c", SLEEPER], stdout=subprocess.PIPE, start_new_session=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"ready"
        # WHEN a process is inspected with it
        r = run_cli(
            ["inspect", str(proc.pid), "--report-dir", str(tmp_path / "r")],
            timeout=120,
            PATH=f"{bin_dir}:{os.environ['PATH']}",
            GVLSTRESS_NATIVE_TOOL="eu-stack",
        )
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
    # THEN report.md and the console show them escaped, never raw
    assert r.returncode == 0, r.stdout + r.stderr
    (report,) = (tmp_path / "r").glob("*/report.md")
    text = report.read_text()
    assert UNSAFE.search(text) is None
    assert "evil\\x00nul\\e[31mred\\x07bell" in text
    assert UNSAFE.search(r.stdout) is None
