"""Amplifiers (squeeze, CPU quota, burners) and `hunt`, on real workers, cgroups and processes."""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from conftest import alive, cli_env, cli_run, load_run, run_cli, spawned_workers, wait_for
from gvlstress.supervisor.amplifiers import BURN_TAG

pytestmark = pytest.mark.slow
# `alone` where chaos stops threads by ptrace or the gang stops workers, where a hunt or a verdict
# measures what load beside it would change, and where a harness is SIGKILLed or held (its
# watchdog then unlinks every multiprocessing semaphore made since the run began that no process
# maps: another run's, made but not yet opened by its spawned worker, too; a CI run at -n 4 lost
# a worker to it); the rest (refusals, levers that bind only their own workers, the switch
# interval's record) runs beside other tests.

TOKEN = f"amplify-{os.getpid()}"
"""Set in the environment of harnesses this module starts: their burners inherit it, so
burners of other runs on a shared machine are never counted."""


def burners_alive() -> list[int]:
    """Live burners of this module's harnesses (tagged argv, our token in their environment)."""
    out = []
    for p in psutil.process_iter(["cmdline", "status"]):
        with contextlib.suppress(psutil.Error):
            if (
                BURN_TAG in (p.info["cmdline"] or [])
                and p.info["status"] != psutil.STATUS_ZOMBIE
                and p.environ().get("GVLSTRESS_TEST_TOKEN") == TOKEN
            ):
                out.append(p.pid)
    return out


@pytest.mark.alone
def test_every_amplifier_on_a_healthy_run_is_recorded_and_undone(report_dir: Path) -> None:
    run = cli_run(
        [
            "run",
            "--workers",
            "2",
            "--rayon",
            "4",
            "--waves",
            "2",
            "--duration",
            "1",
            "--squeeze",
            "1",
            "--cpu-quota",
            "0.5",
            "--burners",
            "1",
            "--chaos",
            "3",
            "--gang",
            "20",
        ],
        0,
        report_dir,
        GVLSTRESS_TEST_TOKEN=TOKEN,
    )
    assert run["scenario"]["squeeze"] == 1
    for wave in run["waves"]:
        amp = wave["amplifiers"]
        assert amp["not_applied"] == []  # every lever held in every wave, for certain
        assert amp["burners"] == {"count": 1, "running_at_end": 1}
        assert amp["chaos"]["seed"] == 3
        assert amp["chaos"]["starvations"] > 0
        assert amp["chaos"]["refused"] == 0
        assert amp["chaos"]["workers_touched"] == 2
        assert amp["gang"]["turns"] > 0  # the two workers took turns owning the machine
        # pinned before the target was imported: every thread it started inherited the mask
        assert amp["squeeze"]["workers_pinned"] == 2
        assert amp["squeeze"]["threads_pinned"] == amp["squeeze"]["threads"] >= 10  # main + 4 pool, x2
        quota = amp["cpu_quota"]
        assert quota["cores"] == 0.5
        assert quota["workers_joined"] == 2
        # the quota as the kernel held it (read back from the group), and its cpu.stat read (how
        # often it throttled: a count, 0 where the gang and chaos kept both workers under it)
        assert quota["cores_in_force"] == 0.5
        assert isinstance(quota["nr_throttled"], int)
        assert not Path(quota["cgroup"]).exists()  # removed after the wave
        assert wave["verdict"] == "ok"  # slowed, never a false hang
    assert burners_alive() == []
    md = next(report_dir.glob("*/report.md")).read_text()
    assert "--cpu-quota 0.5" in md  # the reproduce line carries them


@pytest.mark.parametrize(("option", "value"), [("--cpu-quota", "1"), ("--memory-limit", "1G")])
def test_a_cgroup_lever_where_cgroups_are_not_writable_is_one_line_and_exit_4(
    tmp_path: Path, option: str, value: str
) -> None:
    r = run_cli(
        ["run", option, value, "--report-dir", str(tmp_path / "r")],
        timeout=60,
        GVLSTRESS_CGROUP_ROOT=str(tmp_path / "no-cgroups"),
    )
    assert r.returncode == 4
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith(f"gvlstress: error: {option}: cannot create a cgroup under")


@pytest.mark.alone
def test_hunt_finds_the_lock_order_race_and_stops(report_dir: Path) -> None:
    r = run_cli(
        [
            "hunt",
            "--fault",
            "lock_order",
            "-o",
            "window_us=0",
            "--workers",
            "1",
            "--rayon",
            "8",
            "--iterations",
            "300",
            "--budget",
            "120",
            "--report-dir",
            str(report_dir),
        ],
        timeout=300,
    )
    assert r.returncode == 1, r.stdout + r.stderr
    assert "hunt stopped: 1 hung wave found" in r.stdout
    assert "hangs per 1000 batches [95% CI" in r.stdout
    assert "first hang after" in r.stdout


@pytest.mark.alone
def test_hunt_on_a_healthy_run_stops_at_its_budget(report_dir: Path) -> None:
    r = run_cli(
        [
            "hunt",
            "--workers",
            "1",
            "--rayon",
            "2",
            "--iterations",
            "5",
            "--budget",
            "3s",
            "--report-dir",
            str(report_dir),
        ],
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "hunt stopped: time budget of 3s used" in r.stdout
    assert "0.00 hangs per 1000 batches" in r.stdout


@pytest.mark.alone
def test_burners_and_chaos_leave_nothing_behind_a_sigkilled_harness(tmp_path: Path) -> None:
    harness = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "run",
            "--workers",
            "2",
            "--rayon",
            "2",
            "--duration",
            "60",
            "--timeout",
            "120",
            "--burners",
            "2",
            "--chaos",
            "5",
            "--gang",
            "20",
            "--report-dir",
            str(tmp_path / "r"),
        ],
        env=cli_env(GVLSTRESS_TEST_TOKEN=TOKEN),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        pids = wait_for(lambda: len(burners_alive()) == 2 and burners_alive(), 60, "two burners")
        workers = wait_for(
            lambda: len(w := spawned_workers(psutil.Process(harness.pid), 1)) == 2 and w, 60, "the workers"
        )
        os.kill(harness.pid, signal.SIGKILL)
        harness.wait(10)
        # burners killed; the perturbed workers (threads ptrace-stopped, or SIGSTOPped by the gang) are gone too
        wait_for(lambda: not set(pids) & set(burners_alive()), 5, "the burners to be killed")
        wait_for(
            lambda: (
                not any(
                    psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE
                    for p in workers
                )
            ),
            5,
            "the workers to be killed",
        )
        assert workers
        assert not set(pids) & set(burners_alive())
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(harness.pid, signal.SIGKILL)


def test_an_orphaned_burner_stops_by_itself() -> None:
    """Belt and braces: a burner whose harness vanished (watchdog and all) stops on its own."""
    parent = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, subprocess, sys\n"
            "from gvlstress.supervisor.amplifiers import BURN, BURN_TAG\n"
            "p = subprocess.Popen([sys.executable, '-c', BURN, BURN_TAG, str(os.getpid())],"
            " start_new_session=True)\n"
            "print(p.pid, flush=True)\n"
            "os._exit(0)  # no kill, no wait: the burner is orphaned\n",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=cli_env(),
        check=True,
    )
    pid = int(parent.stdout)
    try:
        wait_for(lambda: not alive(pid), 30, "the orphaned burner to exit")
        assert not alive(pid)
    finally:
        with contextlib.suppress(psutil.Error):
            proc = psutil.Process(pid)
            if BURN_TAG in proc.cmdline():  # still ours (never a reused pid)
                proc.kill()


def _kept_pid(harness: subprocess.Popen[bytes], timeout: float) -> tuple[int, str]:
    """Read the harness's stdout until it names the worker it keeps alive; (pid, text so far)."""
    assert harness.stdout is not None
    fd = harness.stdout.fileno()
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    text = ""
    end = time.monotonic() + timeout
    while (m := re.search(r"worker (\d+) \(wave \d+\) is kept alive", text)) is None:
        left = end - time.monotonic()
        if left <= 0 or not sel.select(timeout=left):
            pytest.fail(f"no kept-alive worker within {timeout:g}s:\n{text}")
        chunk = os.read(fd, 4096)
        if not chunk:
            pytest.fail(f"the harness exited (code {harness.wait(10)}) without keeping a worker:\n{text}")
        text += chunk.decode(errors="replace")
    return int(m.group(1)), text


def _keep_alive_hunt(report_dir: Path, keep: str, workers: int = 2) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gvlstress",
            "hunt",
            "--fault",
            "lock_across_par_iter",
            "--workers",
            str(workers),
            "--rayon",
            "2",
            "--keep-alive",
            keep,
            "--report-dir",
            str(report_dir),
        ],
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@pytest.mark.alone
def test_keep_alive_leaves_the_hung_worker_for_a_debugger_until_ctrl_c(report_dir: Path) -> None:
    harness = _keep_alive_hunt(report_dir, "10m")
    try:
        pid, text = _kept_pid(harness, 120)
        assert f"gvlstress inspect {pid}" in text
        # the report is already written, and names the kept worker
        run = load_run(report_dir)
        assert run["waves"][0]["kept_alive"] == pid
        assert f"gvlstress inspect {pid}" in next(report_dir.glob("*/report.md")).read_text()
        # the worker is the harness's child and still hung: a second tool sees the same deadlock
        assert pid in [c.pid for c in psutil.Process(harness.pid).children()]
        seen = run_cli(["inspect", str(pid), "--report-dir", str(report_dir / "inspect")], timeout=180)
        assert seen.returncode == 1, seen.stdout + seen.stderr
        assert "deadlock" in seen.stdout
        harness.send_signal(signal.SIGINT)
        assert harness.wait(60) == 1  # a hang was found
        assert not alive(pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(harness.pid, signal.SIGKILL)
        harness.wait(30)


@pytest.mark.alone
def test_keep_alive_ends_by_itself_and_never_outlives_a_sigkilled_harness(tmp_path: Path) -> None:
    # the hold has a deadline: the harness ends on its own and takes the worker with it (one
    # worker: nothing else breaks the pool, so the harness must end the pool's wait itself)
    short = _keep_alive_hunt(tmp_path / "a", "2s", workers=1)
    try:
        pid, _ = _kept_pid(short, 120)
        assert short.wait(60) == 1
        assert not alive(pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(short.pid, signal.SIGKILL)
        short.wait(30)
    # SIGKILL during the hold: the watchdog kills the kept worker
    killed = _keep_alive_hunt(tmp_path / "b", "10m")
    try:
        pid, _ = _kept_pid(killed, 120)
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(10)
        wait_for(lambda: not alive(pid), 30, "the kept worker to be killed by the watchdog")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(killed.pid, signal.SIGKILL)
        killed.wait(30)


def test_squeeze_and_quota_hold_before_the_target_runs(report_dir: Path) -> None:
    # GIVEN a target that looks at its own cgroups and CPUs the moment it is called
    run = cli_run(
        [
            "run",
            "--target",
            "cgcheck:batches",
            "--workers",
            "2",
            "--waves",
            "2",
            "--iterations",
            "1",
            "--squeeze",
            "1",
            "--cpu-quota",
            "0.5",
        ],
        0,
        report_dir,
    )
    # THEN every worker of every wave was already pinned and inside the wave's quota cgroup
    for wave in run["waves"]:
        cgroup = Path(wave["amplifiers"]["cpu_quota"]["cgroup"]).name
        for w in wave["workers"]:
            seen = w["target_info"]
            assert seen["affinity"] == wave["amplifiers"]["squeeze"]["cpu_ids"]
            assert any(line.endswith("/" + cgroup) for line in seen["cgroups"]), seen["cgroups"]
        assert wave["amplifiers"]["not_applied"] == []


@pytest.mark.parametrize(("mode", "changed"), [("modules", 0), ("switch", 1)])
def test_the_switch_interval_holds_from_import_and_a_target_that_sets_its_own_is_named(
    report_dir: Path, mode: str, changed: int
) -> None:
    run = cli_run(
        [
            "run",
            "--target",
            "probe_target:ProbeTarget",
            "-o",
            f"mode={mode}",
            "--workers",
            "2",
            "--waves",
            "1",
            "--iterations",
            "3",
            "--switch-interval",
            "0.0001",
        ],
        0,
        report_dir,
    )
    (wave,) = run["waves"]
    assert [w["target_info"]["switch_at_open"] for w in wave["workers"]] == pytest.approx([0.0001, 0.0001])
    record = wave["amplifiers"]["switch_interval"]
    assert record == {"seconds": 0.0001, "workers": 2, "workers_reporting": 2, "workers_changed": changed}
    gaps = wave["amplifiers"]["not_applied"]
    assert gaps == (
        []
        if not changed
        else ["switch_interval: the target set its own GIL switch interval in 1 of 2 finished workers"]
    )


def test_a_gil_deadlock_under_a_short_switch_interval_is_still_a_named_deadlock(report_dir: Path) -> None:
    # four rayon threads wait for the GIL, waking every 100 us to ask for it: parked, not spinning
    run = cli_run(
        [
            "run",
            "--fault",
            "gil_held",
            "--fault-rate",
            "1",
            "--workers",
            "1",
            "--rayon",
            "4",
            "--waves",
            "1",
            "--switch-interval",
            "0.0001",
        ],
        1,
        report_dir,
    )
    (worker,) = run["waves"][0]["workers"]
    assert worker["verdict"] == "deadlock"
    assert "GIL held across a rayon region" in worker["diagnosis"]["summary"]


@pytest.mark.alone
@pytest.mark.parametrize("threads", [4, 16])
def test_busy_python_threads_taking_turns_on_a_short_switch_interval_are_never_a_hang(
    report_dir: Path, threads: int
) -> None:
    # a healthy control: each batch is N pure-Python threads sharing the GIL for 1.5 s, quiet
    # past the stall floor, every one of them ticking on the 100 us interval as a GIL waiter does
    run = cli_run(
        [
            "run",
            "--target",
            "gil_busy:batches",
            "--workers",
            "1",
            "--waves",
            "2",
            "--switch-interval",
            "0.0001",
            "--stall-floor",
            "0.5",
        ],
        0,
        report_dir,
        GIL_BUSY_THREADS=str(threads),
    )
    assert [w["verdict"] for w in run["waves"]] == ["slow", "slow"]
