"""`gvlstress watch` on real jobs: a hang reported and acted on; healthy quiet jobs (a sleep, long
compute, a pool between tasks, a slow peer) run to their own end with their own exit codes and
no hang report, also under two CPU burners; stdin, stdout and exit codes passed through; a
scheduler's SIGTERM; ``--pid``; the explicit progress signals.

The catalogue and the live-process hangs under watch are in `tests/test_agreement.py` (the
same verdict as inspect --tree and run); the rule for progress is in `tests/test_watch_rules.py`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
import pytest

from conftest import GVL, SUPPORT, all_gone, cli_env, wait_for
from gvlstress.controls.catalogue import CATALOGUE, NO_RUNTIME
from gvlstress.controls.realbug import script as trigger_of
from gvlstress.controls.realbugs import BUGS_DIR
from gvlstress.model.controls import RealBug
from gvlstress.probes.interpreter import satisfied

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]
JOBS = SUPPORT / "watch_jobs.py"


def watch(
    report_dir: Path, *args: str, stdin: str | None = None, timeout: float = 120
) -> tuple[int, str, dict[str, Any]]:
    """`gvlstress watch ARGS` to its end: (exit code, the job's stdout, watch.json)."""
    done = subprocess.run(
        [*GVL, "watch", "--report-dir", str(report_dir), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=cli_env(),
        check=False,
    )
    (path,) = report_dir.glob("*/watch.json")
    return done.returncode, done.stdout, json.loads(path.read_text())


@contextmanager
def burners(n: int = 2) -> Iterator[None]:
    """Two CPU-burning neighbours on this 2-core host for the duration."""
    procs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(n)
    ]
    try:
        yield
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)


def test_a_hang_is_reported_then_the_tree_killed_and_the_exit_code_is_1(report_dir: Path) -> None:
    code, _, data = watch(
        report_dir, "--stall", "2", "--on-hang", "kill", "--", sys.executable, str(BUGS_DIR / "queue_join.py")
    )
    assert code == 1
    assert data["hang"] is not None
    first = data["hang"]["processes"][0]["diagnosis"]
    assert (first["verdict"], first["pattern"]) == ("deadlock", "Queue.join() without task_done()")
    assert data["action"] == "killed the job's process tree"
    assert all_gone([data["pid"]])
    (run_dir,) = report_dir.iterdir()
    assert {"report.md", "watch.json", "inspect.json"} <= {p.name for p in run_dir.iterdir()}
    assert "Queue.join() without task_done()" in (run_dir / "report.md").read_text()


def test_a_secret_after_a_short_option_is_in_no_file_watch_writes(report_dir: Path) -> None:
    # GIVEN a hanging job whose command line carries secrets after -p, -P and -k, also in a script
    secrets = ("hunter2pw", "zipPassphrase9", "opensslkey7")
    script = f"exec {sys.executable} {BUGS_DIR / 'queue_join.py'} -P {secrets[1]} -k {secrets[2]}"
    code, _, _ = watch(
        report_dir, "--stall", "2", "--on-hang", "kill", "--", "sh", "-c", script, "-p", secrets[0]
    )
    # THEN the hang is reported and no file watch writes holds them
    assert code == 1
    (run_dir,) = report_dir.iterdir()
    files = {p.name: p.read_text(errors="replace") for p in run_dir.rglob("*") if p.is_file()}
    assert {"watch.json", "report.md", "inspect.json"} <= set(files)
    for name, text in files.items():
        for secret in secrets:
            assert secret not in text, f"{secret} leaked into {name}"
    assert "<redacted>" in files["watch.json"]


def test_the_jobs_stdin_stdout_and_exit_code_pass_through(report_dir: Path) -> None:
    code, out, data = watch(report_dir, "--", sys.executable, str(JOBS), "echo", stdin="hello\n")
    assert (code, out) == (3, "HELLO\n")
    assert (data["exit_code"], data["hang"]) == (3, None)


@pytest.mark.parametrize("mode", ["sleep", "compute", "pool", "peer"])
def test_a_healthy_quiet_job_runs_to_its_end_with_no_hang_report(report_dir: Path, mode: str) -> None:
    """Quiet for longer than the stall (so it is looked at, maybe twice), then done: exit 0."""
    code, _, data = watch(report_dir, "--stall", "2", "--", sys.executable, str(JOBS), mode, "7")
    assert code == 0, data
    assert data["hang"] is None
    assert data["quiet"], "the quiet spell was never looked at"
    assert not list(report_dir.glob("*/inspect.json"))


@pytest.mark.parametrize("mode", ["compute", "sleep"])
def test_healthy_quiet_jobs_stay_healthy_under_two_cpu_burners(report_dir: Path, mode: str) -> None:
    with burners():
        code, _, data = watch(report_dir, "--stall", "2", "--", sys.executable, str(JOBS), mode, "7")
    assert (code, data["hang"]) == (0, None)


def test_a_schedulers_sigterm_leaves_the_report_and_no_process_behind(report_dir: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "watch",
            "--report-dir",
            str(report_dir),
            "--stall",
            "2",
            "--",
            sys.executable,
            str(JOBS),
            "sleep",
            "600",
        ],
        env=cli_env(),
        start_new_session=True,
    )
    try:
        job = wait_for(
            lambda: next(
                (c.pid for c in psutil.Process(proc.pid).children() if "watch_jobs" in " ".join(c.cmdline())),
                None,
            ),
            60,
            "the job to start",
        )
        os.kill(proc.pid, signal.SIGTERM)
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert code == 143
    (path,) = report_dir.glob("*/watch.json")
    data = json.loads(path.read_text())
    assert data["stopped_by"] == "SIGTERM"
    assert (report_dir / path.parent.name / "report.md").exists()
    assert all_gone([job])


def test_attached_with_pid_it_judges_a_process_it_did_not_start(report_dir: Path) -> None:
    hung = subprocess.Popen(
        [sys.executable, str(BUGS_DIR / "queue_join.py")], stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        assert hung.stdout is not None
        wait_for(lambda: hung.stdout is not None and b"ready" in hung.stdout.readline(), 60, "the hang")
        code, _, data = watch(report_dir, "--pid", str(hung.pid), "--stall", "2", "--on-hang", "kill")
    finally:
        if hung.poll() is None:
            os.killpg(hung.pid, signal.SIGKILL)
        hung.wait(10)
    assert code == 1
    assert data["attached"] is True
    assert data["hang"]["processes"][0]["diagnosis"]["pattern"] == "Queue.join() without task_done()"


def test_a_hang_that_still_logs_is_seen_only_through_progress_regex(report_dir: Path) -> None:
    """`chatty` logs forever after its steps stop: its output is progress to a plain watch (never
    looked at), not with --progress-regex 'step' (quiet, so looked at)."""
    job = ["--", sys.executable, str(JOBS), "chatty", "1"]
    report_dir.mkdir(parents=True, exist_ok=True)
    said_by_regex = report_dir / "regex.stderr"
    plain = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "watch",
            "--stall",
            "2",
            "--report-dir",
            str(report_dir / "plain"),
            *job,
        ],
        stdout=subprocess.DEVNULL,
        env=cli_env(),
        start_new_session=True,
    )
    with said_by_regex.open("w") as err:
        regex = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gvlstress",
                "watch",
                "--stall",
                "2",
                "--progress-regex",
                r"^step \d+",
                "--report-dir",
                str(report_dir / "regex"),
                *job,
            ],
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=cli_env(),
            start_new_session=True,
        )
    try:  # until the regex watch has looked at the quiet job; the plain one ran as long
        wait_for(lambda: "looked, healthy" in said_by_regex.read_text(), 60, "the regex watch to look")
    finally:
        for p in (plain, regex):
            os.kill(p.pid, signal.SIGTERM)
            p.wait(60)
    said = {
        name: json.loads(next((report_dir / name).glob("*/watch.json")).read_text())
        for name in ("plain", "regex")
    }
    assert said["plain"]["quiet"] == []
    assert said["regex"]["quiet"], said["regex"]


def test_on_hang_signal_sends_it_and_the_exit_code_says_hang(report_dir: Path) -> None:
    args = ["--stall", "2", "--on-hang", "signal:USR1", "--hang-exit-code", "86"]
    code, _, data = watch(report_dir, *args, "--", sys.executable, str(JOBS), "usr1")
    assert code == 86
    assert data["action"] == "sent SIGUSR1 to the job"
    assert data["exit_code"] == 5  # its handler ended it


CONTROLS = [
    pytest.param(b, id=b.name)
    for b in CATALOGUE
    if satisfied((*b.packages, *(b.control_packages or ())), b.python)
]


@pytest.mark.parametrize("bug", CONTROLS)
def test_every_catalogue_control_runs_to_its_end_under_watch_with_no_hang(
    report_dir: Path, bug: RealBug
) -> None:
    """The fixed release or the documented workaround of every real bug, under watch and two CPU
    burners: its own exit code (0), no hang report, whatever quiet spells it had."""
    with burners():
        code, _, data = watch(
            report_dir,
            "--stall",
            "2",
            "--",
            sys.executable,
            str(trigger_of(bug)),
            "control",
            *bug.args,
            timeout=180,
        )
    if code == NO_RUNTIME:
        pytest.skip(f"{bug.name}: this host lacks its runtime")
    assert (code, data["hang"]) == (0, None), data["quiet"]


def test_a_sigkilled_watch_leaves_nothing_of_the_jobs_tree(report_dir: Path) -> None:
    """The watchdog records a watched job's tree slowly (it leads its own group), so it must
    still take a child that kept the group but lost the owner token (the group's kill) and one
    that left every group with the token (the sweep)."""
    # GIVEN a watched job with one child of each kind
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "watch",
            "--report-dir",
            str(report_dir),
            "--",
            sys.executable,
            str(JOBS),
            "family",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=cli_env(),
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        line = wait_for(proc.stdout.readline, 60, "the job's children")
        kept, left = (int(x) for x in line.split()[1:])
        job = psutil.Process(kept).ppid()
        # WHEN gvlstress itself is SIGKILLed (no cleanup of its own runs)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        # THEN its watchdog kills the job, both children and nothing else
        wait_for(lambda: all_gone([job, kept, left]), 30, "the job's tree to be killed")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
