"""Hardening: tool deadlines that hold, cancels that act at once, inputs that never crash.

Real processes throughout: fake tools are shell scripts on disk, killed for real.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import cli_env, wait_for
from gvlstress.probes import native, procfs, pyspy, tools


@pytest.fixture
def stubborn_tool(tmp_path: Path) -> Path:
    """A tool whose grandchild leaves its session and keeps the output pipe open."""
    script = tmp_path / "stubborn"
    pidfile = tmp_path / "grandchild.pid"
    script.write_text(
        '#!/bin/sh\n[ "$1" = --version ] && { echo "py-spy 0.0.0"; exit 0; }\n'  # answers that at once
        f"setsid sh -c 'echo $$ > {pidfile}; exec sleep 150' &\nexec sleep 150\n"
    )
    script.chmod(0o755)
    return script


def test_a_tool_deadline_holds_even_when_a_grandchild_keeps_the_pipe(stubborn_tool: Path) -> None:
    pidfile = stubborn_tool.with_name("grandchild.pid")
    started = time.monotonic()
    out = tools.run([str(stubborn_tool)], timeout=1.0)
    took = time.monotonic() - started
    assert not out.ok
    assert out.error == "timed out after 1s"
    assert took < 1.0 + tools.DRAIN_S + 1.5, took
    grandchild = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip(), 5, "the pid file"))
    wait_for(
        lambda: not psutil.pid_exists(grandchild) or psutil.Process(grandchild).status() == "zombie",
        5,
        "the grandchild to be killed",
    )


def test_cancel_kills_a_running_tool_at_once(stubborn_tool: Path) -> None:
    result: list[tools.Output] = []
    t = threading.Thread(target=lambda: result.append(tools.run([str(stubborn_tool)], timeout=60)))
    started = time.monotonic()
    t.start()
    try:
        wait_for(lambda: stubborn_tool.with_name("grandchild.pid").exists(), 10, "the tool to start")
        tools.cancel()
        t.join(10)
    finally:
        tools.reset()
    assert result
    assert result[0].error == "cancelled (the run is stopping)"
    assert time.monotonic() - started < 2 + tools.DRAIN_S + 2


def test_a_rust_backtrace_does_not_hide_the_tools_error(tmp_path: Path) -> None:
    script = tmp_path / "tool"
    script.write_text(
        "#!/bin/sh\necho 'Error: Permission denied (os error 1)' >&2\n"
        "echo 'stack backtrace:' >&2\necho '   0: py_spy::main' >&2\necho '             at src/main.rs:3' >&2\n"
        "exit 1\n"
    )
    script.chmod(0o755)
    assert tools.run([str(script)], timeout=10).error == "Error: Permission denied (os error 1)"


NUMERIC_OPTIONS = [
    "workers",
    "rayon",
    "inherit_rayon",
    "waves",
    "iterations",
    "duration",
    "timeout",
    "stall",
    "stall_floor",
    "startup_grace",
    "fault_rate",
    "seed",
]


@pytest.mark.parametrize("name", NUMERIC_OPTIONS)
@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), 1e300])
def test_every_number_is_finite_and_bounded_from_the_cli_and_toml(
    name: str, value: float, tmp_path: Path
) -> None:
    from gvlstress.errors import UsageError
    from gvlstress.scenario import resolve

    option = "--" + name.replace("_", "-")
    with pytest.raises(UsageError, match=rf"^{option}: must be"):
        resolve(None, {name: value}, {name: option})
    toml = tmp_path / "s.toml"
    literal = {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(value), "1e300")
    toml.write_text(f"[scenario]\n{name} = {literal}\n")
    with pytest.raises(UsageError, match=rf"s.toml \[scenario\] {name}: must be"):
        resolve(str(toml), {})


@pytest.mark.parametrize("args", [["--timeout", "nan"], ["--duration", "inf"], ["--stall", "-inf"]])
def test_a_non_finite_option_is_one_line_and_exit_2(args: list[str]) -> None:
    from conftest import run_cli

    r = run_cli(["run", *args], timeout=60)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1
    assert "must be a finite number" in r.stderr


# -- parsers never raise on input: junk, depth, size and wrong types ---------------------------


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
junk = st.one_of(
    st.text(max_size=3000),
    st.binary(max_size=3000).map(lambda b: b.decode("latin-1")),
    st.integers(1, 200_000).map(lambda n: "[" * n),
    st.integers(1, 50_000).map(
        lambda n: "Traceback for thread 1 (x) []\n" + '    (C) File "a", line 1, in f\n' * n
    ),
)


@FUZZ
@given(junk)
def test_proc_parsers_never_raise(text: str) -> None:
    vol, nonvol = procfs.parse_status(text)
    assert vol is None or vol >= 0
    assert nonvol is None or nonvol >= 0
    nr, args = procfs.parse_syscall_args(text)
    assert nr is None or (nr >= 0 and len(args) <= 6)
    assert procfs.parse_syscall(text)[0] == nr
    assert procfs.parse_schedstat(text) is None or procfs.parse_schedstat(text) >= 0  # type: ignore[operator]
    assert procfs.parse_wchan(text) != ""
    assert procfs.parse_sigcgt(text) >= 0
    assert set(procfs.parse_io(text)) <= {"syscr", "syscw"}
    with contextlib.suppress(ValueError):  # documented: "not a stat line" (a vanished thread)
        procfs.parse_stat(text)


@FUZZ
@given(junk)
def test_stack_parsers_never_raise(text: str) -> None:
    for parse in (native.parse_eustack, native.parse_gdb, native.parse_pystack):
        threads = parse(text)
        assert all(t.tid >= 0 for t in threads)
    with contextlib.suppress(ValueError):  # documented: the py-spy view is "unreadable", the run goes on
        pyspy.parse_json(text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=30,
)


@FUZZ
@given(json_values)
def test_pyspy_json_of_any_shape_is_read_or_refused(value: object) -> None:
    import json

    with contextlib.suppress(ValueError):
        threads = pyspy.parse_json(json.dumps(value))
        assert all(isinstance(t.tid, int) for t in threads)


@settings(max_examples=60, deadline=None)
@given(json_values)
def test_a_run_json_of_any_shape_is_a_usage_error_never_a_crash(
    tmp_path_factory: pytest.TempPathFactory, value: object
) -> None:
    import json

    from gvlstress.errors import UsageError
    from gvlstress.reporters import json_report

    d = tmp_path_factory.mktemp("run")
    doc = {"schema": json_report.SCHEMA, "scenario": value, "waves": value, "environment": value}
    for text in (json.dumps(value), json.dumps(doc), "[" * 100_000, "\x00\xff"):
        (d / "run.json").write_text(text, errors="surrogateescape")
        with contextlib.suppress(UsageError):
            assert json_report.read(d).scenario is not None


# -- the error funnel: never a traceback, never exit 1 for anything but a hang ------------------


def test_a_bug_is_one_line_exit_70_with_the_traceback_in_a_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import gvlstress.api as api, gvlstress.cli as cli\n"
        "def broken(*a, **k):\n    raise ZeroDivisionError('planted bug token=ghp_abcdefghijklmnop0123')\n"
        f"api.run = broken\ncli.main(['run', '--report-dir', {str(tmp_path)!r}])\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 70
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: internal error: ZeroDivisionError: planted bug")
    assert "ghp_abcdefghijklmnop0123" not in r.stderr
    path = Path(line.split("traceback in ")[1].split(";")[0])
    saved = path.read_text()
    path.unlink()
    assert "Traceback (most recent call last)" in saved
    assert "ghp_abcdefghijklmnop0123" not in saved  # redacted by value, like every report


def test_a_target_whose_prepare_raises_is_a_usage_error(tmp_path: Path) -> None:
    from conftest import run_cli

    (tmp_path / "badtarget.py").write_text(
        "class Bad:\n    name = 'bad'\n    def prepare(self, scenario, workdir):\n        raise KeyError('nope')\n"
    )
    r = run_cli(
        ["run", "--target", "badtarget:Bad", "--report-dir", str(tmp_path / "r")], cwd=tmp_path, timeout=60
    )
    assert r.returncode == 2
    assert r.stderr.startswith("gvlstress: error: target 'badtarget:Bad': prepare() raised KeyError: 'nope'")


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
    from conftest import run_cli

    reports = full_fs / "reports"
    r = run_cli(
        [
            "run",
            "--fault",
            "lock_across_par_iter",
            "--workers",
            "2",
            "--rayon",
            "16",
            "--waves",
            "1",
            "--report-dir",
            str(reports),
        ],
        timeout=240,
    )
    assert r.returncode == 4, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: cannot write or read")
    assert "No space left on device" in line
    leftovers = [p for p in reports.rglob(".*") if p.is_file()]
    assert leftovers == []  # atomic writes: no half-written temporary file stays behind


SECRET_VALUES = {
    "url": "postgres://alice:p/ss@db.internal/app",
    "bearer": "Bearer sk-live0123456789abcdefXYZ",
    "ghp": "ghp_0123456789abcdefghijABCDEFGHIJ",
    "hf": "hf_abcdefghijklmnopqrstuvwxyz012345",
    "aws": "AKIAIOSFODNN7EXAMPLE",
}


def test_no_planted_secret_leaves_the_process(tmp_path: Path) -> None:
    from conftest import run_cli

    (tmp_path / "leaky.py").write_text(
        "import sys\n"
        "def batches(**options):\n"
        "    sys.stderr.write('connecting to %s\\n' % options.get('dsn'))\n"
        "    yield b'x'\n"
        "    raise RuntimeError('failed with %s' % options.get('key'))\n"
    )
    reports = tmp_path / "reports"
    r = run_cli(
        [
            "run",
            "--target",
            "leaky:batches",
            "--workers",
            "1",
            "--waves",
            "1",
            "--iterations",
            "3",
            "-o",
            f"dsn={SECRET_VALUES['url']}",
            "-o",
            f"key={SECRET_VALUES['ghp']}",
            "-o",
            f"note=password={SECRET_VALUES['hf']}",
            "--report-dir",
            str(reports),
        ],
        cwd=tmp_path,
        timeout=120,
        GVL_CACHE_URL=SECRET_VALUES["url"],
        OMP_AUTHORIZATION=SECRET_VALUES["bearer"],
        MKL_KEY=SECRET_VALUES["aws"],
        TOKENIZERS_PARALLELISM="false",
    )
    assert r.returncode == 3, r.stdout + r.stderr  # the target raised: an error, not a hang
    files = [p for p in reports.rglob("*") if p.is_file()]
    assert any(p.name == "run.json" for p in files)
    for where, text in [("console", r.stdout + r.stderr)] + [
        (str(p), p.read_text(errors="replace")) for p in files
    ]:
        for name, secret in SECRET_VALUES.items():
            core = secret.split()[-1].split("@")[0].split(":")[-1]  # the secret part itself
            assert core not in text, f"{name} leaked into {where}"
    import json

    run = json.loads(next(reports.glob("*/run.json")).read_text())
    assert run["environment"]["thread_knobs"]["TOKENIZERS_PARALLELISM"] == "false"  # a knob, kept


# -- nothing survives the harness, whatever kills it --------------------------------------------


GRAND = """
import os, subprocess, threading

def batches(out="", slot=0):
    child = subprocess.Popen(["sleep", "300"], start_new_session=True)  # leaves every group
    with open(os.path.join(out, f"grand-{slot}"), "w") as fh:
        fh.write(f"{os.getpid()} {child.pid}")
    yield b"x"
    threading.Event().wait()  # then wait forever, quietly
"""


def _gone(pids: list[int]) -> bool:
    def dead(pid: int) -> bool:
        try:
            return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return True

    return all(dead(p) for p in pids)


def test_workers_and_their_children_die_with_a_sigkilled_harness(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    from conftest import cli_env

    (tmp_path / "grand.py").write_text(GRAND)
    harness = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "run",
            "--target",
            "grand:batches",
            "-o",
            f"out={tmp_path}",
            "--workers",
            "2",
            "--waves",
            "1",
            "--iterations",
            "5",
            "--stall",
            "100",
            "--timeout",
            "200",
            "--report-dir",
            str(tmp_path / "r"),
        ],
        cwd=tmp_path,
        env=cli_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        files = wait_for(
            lambda: len(list(tmp_path.glob("grand-*"))) == 2 and list(tmp_path.glob("grand-*")),
            60,
            "both workers to start a grandchild",
        )
        pids = [int(x) for f in files for x in f.read_text().split()]
        assert not _gone(pids)
        stderr_dirs = [
            p
            for p in Path(tempfile.gettempdir()).glob("gvlstress-stderr-*")
            if any((p / f"{pid}.stderr").exists() for pid in pids)
        ]
        assert stderr_dirs  # the run's scratch directory, which a SIGKILL skips cleaning
        os.kill(harness.pid, signal.SIGKILL)
        harness.wait(10)
        wait_for(lambda: _gone(pids), 5, "workers and their session-leaving children to be killed")
        wait_for(lambda: not any(p.exists() for p in stderr_dirs), 5, "the scratch directory to be removed")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(harness.pid, signal.SIGKILL)


@contextlib.contextmanager
def hung_capture(tmp_path: Path, tool: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A harness capturing a deadlocked worker with a py-spy that hangs (and whose grandchild
    leaves its session); yields (harness, grandchild pid) once the hung tool runs."""
    harness = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "run",
            "--fault",
            "lock_across_par_iter",
            "--workers",
            "1",
            "--rayon",
            "2",
            "--waves",
            "1",
            "--report-dir",
            str(tmp_path / "r"),
        ],
        env=cli_env(GVLSTRESS_PYSPY=str(tool)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    pidfile = tool.with_name("grandchild.pid")
    try:
        text = wait_for(lambda: pidfile.exists() and pidfile.read_text().strip(), 60, "the hung tool to run")
        yield harness, int(text)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(harness.pid, signal.SIGKILL)


def test_a_hung_capture_tool_dies_with_a_sigkilled_harness(tmp_path: Path, stubborn_tool: Path) -> None:
    with hung_capture(tmp_path, stubborn_tool) as (harness, grandchild):
        tool = [psutil.Process(grandchild).ppid()]  # the tool itself (it exec'd into sleep)
        assert tool != [1]
        os.kill(harness.pid, signal.SIGKILL)
        harness.wait(10)
        wait_for(lambda: _gone([grandchild, *tool]), 5, "the hung tool and its grandchild to be killed")
        assert tool  # the hung tool was running when the harness died
        assert _gone([grandchild, *tool])


def test_report_and_compare_refuse_a_run_json_with_a_null_scenario(tmp_path: Path) -> None:
    import json
    import shutil

    from conftest import ROOT, run_cli

    run_dir = tmp_path / "run"
    shutil.copytree(ROOT / "reports" / "examples" / "lock-across-par-iter", run_dir)
    data = json.loads((run_dir / "run.json").read_text())
    data["scenario"] = None
    (run_dir / "run.json").write_text(json.dumps(data))
    for args in (["report", str(run_dir), "--force"], ["compare", str(run_dir), str(run_dir)]):
        r = run_cli(args, timeout=60)
        assert r.returncode == 2, r.stdout + r.stderr
        assert r.stderr.startswith("gvlstress: error:")
        assert "malformed run.json" in r.stderr


def test_odd_scenario_files_and_names_are_usage_errors_or_fine(tmp_path: Path) -> None:
    from conftest import run_cli

    deep = tmp_path / "deep.toml"
    deep.write_text("[scenario]\nx = " + "[" * 100_000 + "]" * 100_000 + "\n")
    r = run_cli(["run", "--scenario", str(deep)], timeout=60)
    assert r.returncode == 2
    assert "not valid TOML" in r.stderr
    long = tmp_path / "long.toml"
    long.write_text(f'[scenario]\nname = "{"n" * 300}"\nworkers = 1\nwaves = 1\niterations = 1\n')
    r = run_cli(["run", "--scenario", str(long), "--report-dir", str(tmp_path / "r")], timeout=120)
    assert r.returncode == 0, r.stderr
    (run_dir,) = (tmp_path / "r").iterdir()
    assert len(run_dir.name) < 120


def test_ctrl_c_during_a_capture_of_a_hung_tool_exits_at_once(tmp_path: Path, stubborn_tool: Path) -> None:
    with hung_capture(tmp_path, stubborn_tool) as (harness, _):
        started = time.monotonic()
        os.kill(harness.pid, signal.SIGINT)
        code = harness.wait(15)
        took = time.monotonic() - started
    assert code == 130
    assert took < 2 + tools.DRAIN_S, took
    assert list((tmp_path / "r").glob("*/run.json"))  # the report is still written


def test_a_tool_printing_junk_costs_its_view_not_the_run(tmp_path: Path) -> None:
    from conftest import cli_run

    fake = tmp_path / "py-spy"
    fake.write_text(
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'py-spy 0.0.0'; exit 0; }\n"
        "python3 -c \"print('[' * 200000)\"\n"
    )
    fake.chmod(0o755)
    run = cli_run(
        ["run", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "2", "--waves", "1"],
        1,
        tmp_path / "r",
        GVLSTRESS_PYSPY=str(fake),
    )
    (w,) = run["waves"][0]["workers"]
    assert w["verdict"] == "deadlock"
    assert any(m.startswith("py-spy: py-spy output is not JSON") for m in w["diagnosis"]["missing"])


def test_a_closed_stdout_pipe_does_not_change_the_exit_code(tmp_path: Path) -> None:
    # GIVEN `gvlstress inspect PID | head -1`: the reader goes away before the harness is done
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)
    try:
        r, w = os.pipe()
        os.close(r)  # nobody will ever read
        proc = subprocess.run(
            [sys.executable, "-m", "gvlstress", "inspect", str(idle.pid), "--report-dir", str(tmp_path)],
            stdout=w,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(),
            timeout=120,
            check=False,
        )
        os.close(w)
    finally:
        idle.kill()
        idle.wait(10)
    # THEN it still exits with its verdict's code (idle: 0), saying nothing about the pipe
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


def test_watch_nan_is_a_usage_error() -> None:
    from conftest import run_cli

    r = run_cli(["inspect", str(os.getpid()), "--watch", "nan"], timeout=60)
    assert r.returncode == 2
    assert "--watch: must be a finite number" in r.stderr
