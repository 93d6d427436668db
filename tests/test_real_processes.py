"""Verdicts on real processes nobody here wrote the runtime of: `inspect` against the corpus.

Each program in tests/support/corpus/ puts a real process into one shape (an idle pool, a read
on a silent pipe, a numpy loop, a lock inversion, a fork after polars started its pools...) and
prints `ready` once it is there (a handshake or a bounded /proc poll, never a sleep). A false
"deadlock" here is as much a failure as a missed one. What each shape looks like to /proc and
the stack tools is recorded in tests/support/corpus/FACTS.md.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from conftest import SUPPORT, cli_run, run_cli, wait_for
from gvlstress.api import realbugs
from gvlstress.controls.catalogue import NO_RUNTIME
from gvlstress.controls.realbugs import BUGS_DIR
from gvlstress.judge import names

CORPUS = SUPPORT / "corpus"
READY_S = 90.0

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


@contextmanager
def shape(
    name: str | Path, *args: str, python: str = "", env: Mapping[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], list[str]]]:
    """Start a corpus program (or a real-bug catalogue trigger, which names the hung process in
    a `look PID` line) in its own process group, with `python` (this one by default) and `env`
    on top of this environment; yield once it printed `ready`. A trigger whose runtime this
    host lacks (it exits NO_RUNTIME) is a skip."""
    program = name if isinstance(name, Path) else CORPUS / f"{name}.py"
    scratch = tempfile.mkdtemp(prefix="gvlstress-shape-")  # what a killed program leaves, removed
    proc = subprocess.Popen(
        [
            python or sys.executable,
            str(program if program.exists() else BUGS_DIR / f"{program.stem}.py"),
            *args,
        ],
        stdout=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, **(env or {}), "TMPDIR": scratch},
    )
    try:
        lines = realbugs.handshake(proc, READY_S)
        if "ready" not in lines:
            code = proc.poll()
            if code == NO_RUNTIME:
                pytest.skip(f"{name}: this host lacks its runtime")
            why = f"did not get ready within {READY_S:g}s" if code is None else "exited before it was ready"
            pytest.fail(f"{name} {why} (printed {lines}, code {code})")
        yield proc, lines
    finally:
        end_group(proc)
        shutil.rmtree(scratch, ignore_errors=True)


def end_group(proc: subprocess.Popen[bytes]) -> None:
    """The harness's own clean-up (resource trackers last, so they unlink what the program
    leaked), and no tracker may outlive it."""
    alive = realbugs.end_group(proc)
    assert not alive, f"resource trackers did not end after their program: {alive}"


def look(lines: list[str]) -> int:
    """The hung process a catalogue trigger named."""
    return int(next(x for x in lines if x.startswith("look ")).split()[1])


def inspect(pid: int, report_dir: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    result = run_cli(["inspect", str(pid), "--report-dir", str(report_dir), *extra], timeout=240)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    (path,) = report_dir.glob("*/inspect.json")
    data: dict[str, Any] = json.loads(path.read_text())
    return result.returncode, data


def verdicts(data: dict[str, Any]) -> dict[int, str]:
    return {p["pid"]: p["diagnosis"]["verdict"] for p in data["processes"]}


def the(data: dict[str, Any], pid: int) -> dict[str, Any]:
    return next(p for p in data["processes"] if p["pid"] == pid)


@pytest.mark.parametrize(
    ("name", "verdict", "says"),
    [
        ("idle_pool_sleep", "idle", "clock_nanosleep()"),
        ("read_pipe", "idle", "read() on fd 3 (pipe:["),
        ("accept", "idle", "accept4() on fd 3 (socket:["),
        ("timed_wait_loop", "idle", "timed futex wait"),
        ("polars_idle", "idle", "clock_nanosleep()"),
        ("numpy_busy", "busy", "CPU-s burnt"),
    ],
)
def test_healthy_processes_are_never_called_deadlocked(
    report_dir: Path, name: str, verdict: str, says: str
) -> None:
    with shape(name) as (proc, _):
        code, data = inspect(proc.pid, report_dir)
    assert code == 0
    p = the(data, proc.pid)
    assert p["diagnosis"]["verdict"] == verdict, p["diagnosis"]["summary"]
    assert says in p["diagnosis"]["summary"]


def test_a_child_holding_the_write_end_of_its_own_stdin_is_a_self_wait_and_its_parent_waits_behind(
    report_dir: Path,
) -> None:
    with shape("cat_own_stdin") as (proc, lines):
        child = int(next(x for x in lines if x.startswith("child ")).split()[1])
        wait_for(lambda: _syscall(child) == "0", 30, "cat to block in read()")
        code, data = inspect(proc.pid, report_dir, "--tree")
    assert code == 1
    cat = the(data, child)["diagnosis"]
    assert (cat["verdict"], cat["pattern"], cat["waitfor"]["end"]) == ("deadlock", names.SELF_FD, "self-wait")
    assert the(data, proc.pid)["diagnosis"]["verdict"] == "deadlock"  # its parent, behind it


def _syscall(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/syscall").read_text().split()[0]
    except (OSError, IndexError):
        return ""


@pytest.mark.parametrize("name", ["c_sleep", "idle_pool_sleep"])
def test_a_look_changes_nothing(report_dir: Path, name: str) -> None:
    """The first look's ptrace attach leaves a sleeping thread in restart_syscall: the second and
    third look must still call it what the first did."""
    with shape(name) as (proc, _):
        seen = []
        for look in range(3):
            code, data = inspect(proc.pid, report_dir / str(look))
            d = the(data, proc.pid)["diagnosis"]
            seen.append((code, d["verdict"]))
    assert seen == [(0, "idle")] * 3, seen


def test_a_flock_wait_names_the_file_and_the_holder(report_dir: Path, tmp_path: Path) -> None:
    with shape("flock_wait", str(tmp_path)) as (proc, lines):
        holder = int(next(x for x in lines if x.startswith("holder ")).split()[1])
        assert holder == proc.pid
        child = int(next(x for x in lines if x.startswith("child ")).split()[1])
        code, data = inspect(child, report_dir)
    assert code == 0
    d = the(data, child)["diagnosis"]
    assert d["verdict"] == "idle", d["summary"]
    assert f"flock() for a lock on fd 3 ({tmp_path / 'data.lock'}), held by pid {holder}" in d["summary"]


def test_a_stopped_process_is_stopped(report_dir: Path) -> None:
    with shape("idle_pool_sleep") as (proc, _):
        os.kill(proc.pid, signal.SIGSTOP)
        wait_for(lambda: Path(f"/proc/{proc.pid}/stat").read_text().split(") ")[1][0] == "T", 10, "state T")
        result = run_cli(
            ["inspect", str(proc.pid), "--report-dir", str(report_dir)], timeout=240, RUST_BACKTRACE="1"
        )  # py-spy then ends its error with backtrace frames
        os.kill(proc.pid, signal.SIGCONT)
    assert result.returncode == 0
    (path,) = report_dir.glob("*/inspect.json")
    d = the(json.loads(path.read_text()), proc.pid)["diagnosis"]
    assert d["verdict"] == "stopped"
    assert "stopped by a signal" in d["summary"]
    for view in d["missing"]:  # each missing view says why in words, not a backtrace frame
        assert not re.match(r"^[\w-]+: +\d+: ", view), view


@pytest.mark.parametrize("workers", ["", "3"])
def test_an_idle_process_pool_tree_is_idle_throughout(report_dir: Path, workers: str) -> None:
    # with 3 started workers, two wait on the call queue's lock (shared with the other processes)
    with shape("idle_procpool", *([workers] if workers else [])) as (proc, lines):
        code, data = inspect(proc.pid, report_dir, "--tree")
    assert code == 0
    children = [int(x) for x in lines[0].split()[1:]]
    seen = verdicts(data)
    assert proc.pid in seen
    assert set(children) <= set(seen)
    assert set(seen.values()) == {"idle"}, seen
    if workers:
        shared = [p for p in data["processes"] if "multiprocessing lock shared" in p["diagnosis"]["summary"]]
        assert len(shared) == int(workers) - 1, [p["diagnosis"]["summary"] for p in data["processes"]]


@pytest.mark.parametrize(
    "name",
    [
        "mp_lock_live_holder",
        "pool_recycle",
        "queue_empty_producer",
        "loop_sleep",
        "loop_slow_peer",
        "native_mutex_busy_holder",
        "tcp_accept_later",
        "pty_reader_alive",
        "unix_accept_later",
    ],
)
def test_the_look_alikes_of_the_issue_36_mechanisms_are_never_hangs(report_dir: Path, name: str) -> None:
    # GIVEN a healthy process tree that looks like a dead lock holder (the holder is alive and
    # slow), a respawn loop (workers recycled by maxtasksperchild), a dropped queue item (the
    # queue is merely empty) or a lost wake-up in an event loop (a long timer, a slow peer)
    with shape(name) as (proc, _):
        code, data = inspect(proc.pid, report_dir, "--tree")
    # THEN no process of it is called a hang
    assert code == 0, [p["diagnosis"]["summary"] for p in data["processes"]]
    assert not {"deadlock", "livelock", "stalled"} & set(verdicts(data).values()), verdicts(data)


@pytest.mark.parametrize(
    ("wait", "how"),
    [
        ("executor-result", "busy"),
        ("executor-map", "sleep"),
        ("executor-as-completed", "busy"),
        ("pool-map", "busy"),
        ("pool-apply", "sleep"),
        ("pool-imap", "busy"),
    ],
)
def test_a_launcher_waiting_on_a_healthy_pool_is_idle_not_deadlocked(
    report_dir: Path, wait: str, how: str
) -> None:
    # GIVEN a launcher whose every thread sleeps, its main thread in an untimed futex wait for
    # results that its pool's workers are still computing
    with shape("pool_launcher", wait, how) as (proc, _):
        code, data = inspect(proc.pid, report_dir)
    # THEN its wait leads to the pool's result reader, in poll()/read() on the workers' pipes
    assert code == 0
    d = the(data, proc.pid)["diagnosis"]
    assert d["verdict"] == "idle", d["summary"]
    assert "the pool's result reader" in d["summary"]


def test_a_wedged_executor_is_named_in_the_launcher_and_its_blocked_workers(report_dir: Path) -> None:
    # GIVEN a ProcessPoolExecutor whose worker was SIGKILLed mid-result (as the OOM killer does)
    with shape("pool_wedged") as (proc, lines):
        killed = int(next(x for x in lines if x.startswith("killed")).split()[1])
        code, data = inspect(proc.pid, report_dir, "--tree")
    # THEN the launcher is a deadlock named as a wedged executor, the dead worker named in it
    assert code == 1
    launcher = the(data, proc.pid)["diagnosis"]
    assert launcher["verdict"] == "deadlock", launcher["summary"]
    assert launcher["pattern"] == "executor wedged by a worker killed while sending its result"
    assert any(f"{killed} (SIGKILL)" in e for e in launcher["evidence"]), launcher["evidence"]
    # AND the dead worker is no process of its own in the report; the live ones that finished
    # their task are blocked behind it, on the result queue's lock
    seen = verdicts(data)
    assert killed not in seen
    workers = [
        p for p in data["processes"] if p["pid"] != proc.pid and "resource_tracker" not in p["cmdline"]
    ]
    assert workers
    for w in workers:
        assert w["diagnosis"]["verdict"] == "deadlock", w["diagnosis"]["summary"]
        assert w["diagnosis"]["pattern"] == launcher["pattern"]


def test_a_ring_of_pipe_reads_is_a_deadlock_across_processes(report_dir: Path) -> None:
    # GIVEN three processes each blocked reading a pipe only the previous one can write
    with shape("pipe_cycle") as (proc, lines):
        kids = [int(x) for x in lines[0].split()[1:]]
        code, data = inspect(proc.pid, report_dir, "--tree")
    # THEN each is a deadlock named as the cycle, every step shown (alone, each is an idle read)
    assert code == 1
    for kid in kids:
        d = the(data, kid)["diagnosis"]
        assert d["verdict"] == "deadlock", d["summary"]
        assert d["pattern"] == "cycle of pipe waits across processes"
        assert sum("written only by process" in e for e in d["evidence"]) == 3
    # and the parent, waiting for a child that can never exit, is blocked behind that cycle: its
    # line names it too (one verdict for the tree, as `run` gives its worker)
    parent = the(data, proc.pid)["diagnosis"]
    assert (parent["verdict"], parent["pattern"]) == ("deadlock", "cycle of pipe waits across processes")
    assert "blocked behind its child" in parent["summary"]


def test_a_read_whose_only_writer_is_stopped_names_the_stopped_writer(report_dir: Path) -> None:
    with shape("stopped_producer") as (proc, lines):
        child = int(lines[0].split()[1])
        code, data = inspect(proc.pid, report_dir, "--tree")
    assert code == 0  # not a deadlock: kill -CONT resumes it
    parent = the(data, proc.pid)["diagnosis"]
    assert parent["verdict"] == "stalled", parent["summary"]
    assert f"process(es) {child}, stopped (SIGSTOP or a tracer)" in parent["summary"]
    assert parent["summary"].count("stopped (SIGSTOP") == 1  # said once, not by two rules
    assert the(data, child)["diagnosis"]["verdict"] == "stopped"


@pytest.mark.parametrize(
    ("name", "pattern", "evidence"),
    [
        ("lock_inversion", "lock-order inversion (threading locks)", "lock_inversion.py:"),
        ("lost_wakeup", "lost wakeup (a wait nobody can notify)", "lost_wakeup.py:"),
        ("join_on_waiter", "lost wakeup (a wait nobody can notify)", "waiter (/"),
        (
            "threadpool_nested",
            "thread pool exhaustion (tasks wait on tasks queued behind them)",
            "wait_on_future (/",
        ),
        ("import_thread_join", "import lock held across a wait", "top-level code of /"),
    ],
)
def test_python_level_deadlocks_are_named_with_their_lines(
    report_dir: Path, name: str, pattern: str, evidence: str
) -> None:
    with shape(name) as (proc, _):
        code, data = inspect(proc.pid, report_dir)
    assert code == 1
    d = the(data, proc.pid)["diagnosis"]
    assert d["verdict"] == "deadlock"
    assert d["pattern"] == pattern
    assert any(evidence in e for e in d["evidence"]), d["evidence"]
    md = next(report_dir.glob("*/report.md")).read_text()
    if name == "lock_inversion":
        # both inverted threads' Python stacks are in report.md, not only in a raw dump
        assert md.count("main.<locals>.worker") >= 2


def test_a_closed_wait_set_no_shape_names_is_still_a_hang(report_dir: Path) -> None:
    """Nothing outside the process can end the wait and the CPU is flat: exit 1, 'unrecognised'
    (a script must not read a permanent hang as fine)."""
    with shape("native_cond_forever") as (proc, _):
        code, data = inspect(proc.pid, report_dir)
    d = the(data, proc.pid)["diagnosis"]
    assert (code, d["verdict"], d["pattern"]) == (
        1,
        "deadlock",
        "a wait no thread or process left can end",
    ), d["summary"]


@pytest.mark.parametrize("grace", [False, True])
def test_a_finalizer_at_exit_waiting_for_a_daemon_thread_is_a_hang_unless_it_has_a_grace(
    report_dir: Path, grace: bool
) -> None:
    """A __del__ run by module teardown waits for a daemon thread, which no longer runs once the
    interpreter finalizes: a gone party; the same wait with a timeout ends by itself."""
    with shape("exit_del_waits", *(["--timeout"] if grace else [])) as (proc, _):
        code, data = inspect(proc.pid, report_dir)
    d = the(data, proc.pid)["diagnosis"]
    if grace:
        assert code == 0, d["summary"]
        assert d["verdict"] not in ("deadlock", "livelock"), d["summary"]
    else:
        assert (code, d["verdict"], d["pattern"]) == (1, "deadlock", names.EXIT_FINALIZER_WAIT), d["summary"]


def test_a_native_destructor_hanging_at_exit_is_named(report_dir: Path) -> None:
    """A Rust Drop joins its thread inside Py_FinalizeEx (no Python frame, a join's futex looks
    shared): exit 1, named, with the destructor; the healthy drop (its control) exits."""
    with shape("native_exit_join") as (_, lines):
        child = look(lines)
        code, data = inspect(child, report_dir)
    d = the(data, child)["diagnosis"]
    assert (code, d["verdict"], d["pattern"]) == (1, "deadlock", names.EXIT_DESTRUCTOR), d["summary"]
    assert any("Py_FinalizeEx" in e and "no Python frame" in e for e in d["evidence"]), d["evidence"]
    assert any("Prefetcher as core::ops::drop::Drop" in e and "(prefetch)" in e for e in d["evidence"]), d[
        "evidence"
    ]
    control = subprocess.run(
        [sys.executable, str(CORPUS / "native_exit_join.py"), "control"], capture_output=True, timeout=120
    )
    assert control.returncode == 0, control.stderr


def test_a_gil_native_lock_inversion_is_named(report_dir: Path) -> None:
    """Real CPython, a real pthread mutex: the GIL's holder waits on the mutex whose holder
    waits for the GIL (the PyO3 Mutex/Once shape)."""
    with shape("gil_native_lock") as (_, lines):
        child = look(lines)
        code, data = inspect(child, report_dir)
    d = the(data, child)["diagnosis"]
    assert (code, d["verdict"], d["pattern"]) == (1, "deadlock", "GIL <-> native lock inversion"), d[
        "summary"
    ]
    assert any("holds the GIL" in e and "native lock" in e for e in d["evidence"]), d["evidence"]
    assert any("wait for the GIL" in e for e in d["evidence"]), d["evidence"]


def test_fork_after_an_openmp_team_is_named_and_its_parent_is_idle(report_dir: Path) -> None:
    try:
        ctypes.CDLL("libgomp.so.1")
    except OSError:
        pytest.skip("libgomp.so.1 is not installed (gcc's OpenMP runtime)")
    with shape("gomp_fork") as (proc, lines):
        child = look(lines)
        code, data = inspect(proc.pid, report_dir, "--tree")
    assert code == 1
    parent, kid = the(data, proc.pid)["diagnosis"], the(data, child)["diagnosis"]
    assert parent["verdict"] == "idle", parent["summary"]
    assert (kid["verdict"], kid["pattern"]) == ("deadlock", "fork after pool start"), kid["summary"]
    assert any("for an OpenMP team" in e for e in kid["evidence"]), kid["evidence"]


def test_join_before_get_is_a_cycle_across_parent_and_child(report_dir: Path) -> None:
    with shape("mp_join_before_get") as (proc, lines):
        child = int(next(x for x in lines if x.startswith("child ")).split()[1])
        code, data = inspect(proc.pid, report_dir, "--tree")
    assert code == 1
    parent_d, child_d = the(data, proc.pid)["diagnosis"], the(data, child)["diagnosis"]
    for d in (parent_d, child_d):
        assert d["verdict"] == "deadlock"
        assert d["pattern"] == "join before draining a pipe"
    assert any(f"waits in wait4() for child {child}" in e for e in parent_d["evidence"]), parent_d["evidence"]


def test_fork_after_polars_started_its_pools_is_named(report_dir: Path) -> None:
    with shape("polars_fork") as (proc, lines):
        child = int(next(x for x in lines if x.startswith("child ")).split()[1])
        code, data = inspect(proc.pid, report_dir, "--tree")
    assert code == 1
    assert the(data, proc.pid)["diagnosis"]["verdict"] == "idle"  # the parent is fine
    d = the(data, child)["diagnosis"]
    assert d["verdict"] == "deadlock"
    assert d["pattern"] == "fork after pool start"


def io_run(report_dir: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    result = run_cli(
        [
            "run",
            "--target",
            "io_target:IoTarget",
            "--workers",
            "2",
            "--waves",
            "1",
            "--iterations",
            "5",
            "--stall-floor",
            "1",
            "--report-dir",
            str(report_dir),
            *args,
        ],
        timeout=240,
    )
    (path,) = report_dir.glob("*/run.json")
    return result.returncode, json.loads(path.read_text()), result.stdout + result.stderr


def test_a_batch_blocked_in_read_for_a_while_is_slow_not_a_hang(report_dir: Path) -> None:
    # GIVEN a batch that waits 4 s in read() on a pipe (slow storage), past the 1 s stall floor
    code, run, out = io_run(report_dir, "-o", "block_s=4", "--timeout", "30")
    # THEN it was suspected, seen waiting in read(), and finished: slow, exit 0
    assert code == 0, out
    slot0 = run["waves"][0]["workers"][0]
    assert slot0["verdict"] == "slow"
    assert slot0["stalls"] >= 1
    assert slot0["probe"]["kind"] == "waiting"
    assert "read() on fd" in slot0["probe"]["reason"]


def test_a_batch_blocked_in_read_forever_is_stalled_with_the_wait_named(report_dir: Path) -> None:
    code, run, out = io_run(report_dir, "-o", "block_s=0", "--timeout", "8")
    assert code == 1, out
    wave = run["waves"][0]
    slot0 = wave["workers"][0]
    assert slot0["verdict"] == "stalled"  # not "deadlock": a read ends from outside the process
    assert wave["detected_by"] == "timeout"
    summary = slot0["diagnosis"]["summary"]
    assert "read() on fd" in summary
    assert "(pipe:[" in summary
    assert wave["workers"][1]["verdict"] in ("ok", "cancelled")


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("numpy_busy", "with no syscall and no voluntary switch; thread"),  # then: computation (see below)
        ("syscall_busy", "and making syscalls"),
        ("poll_spin", "and making syscalls"),  # poll + wait4 only: no read or write to count
    ],
)
def test_watch_tells_busy_with_syscalls_from_spinning(report_dir: Path, name: str, says: str) -> None:
    with shape(name) as (proc, _):
        code, data = inspect(proc.pid, report_dir, "--window", "1.5")
    assert code == 0
    p = the(data, proc.pid)
    assert p["diagnosis"]["verdict"] == "busy"
    assert says in p["activity"]["summary"], p["activity"]["summary"]
    if name == "numpy_busy":  # a kernel's stack moves (in Python or in the C under one line), or
        # it faults new pages; at worst it stayed in one BLAS function, or (on a loaded host) its
        # stack was caught at one look only, which the looks say they cannot tell from a spin:
        # never "a spin"
        summary = p["activity"]["summary"]
        assert "a spin:" not in summary, summary
        undecided = ("the looks cannot tell which", "the looks cannot say whether it spins or computes")
        assert "computation" in summary or any(u in summary for u in undecided), summary
    assert p["activity"]["samples"] >= 2  # a window, not one snapshot (how many: as the load allows)
    assert "Activity over" in next(report_dir.glob("*/report.md")).read_text()


def test_without_a_native_stack_tool_a_spawned_deadlock_is_not_called_a_fork_problem(
    report_dir: Path,
) -> None:
    # py-spy sees the main thread's latch frames, nothing sees the pool threads: absence unknown
    run = cli_run(
        ["run", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "4", "--waves", "1"],
        1,
        report_dir,
        GVLSTRESS_NATIVE_TOOL="none",
    )
    (w,) = run["waves"][0]["workers"]
    assert w["verdict"] == "deadlock"
    assert w["diagnosis"]["pattern"] != "fork after pool start"
    assert any("native" in m for m in w["diagnosis"]["missing"])


def test_a_wake_up_lost_behind_a_timer_is_idle_and_says_what_one_look_cannot_tell(report_dir: Path) -> None:
    """CPython 3.11's wait_for() swallowing a cancellation (gh-86296): the loop then waits on the
    consumer's one-hour timer. One look cannot tell that from a healthy loop on a timer (the task
    graph is in memory no tool reads), so it is idle, with its next wake-up, never a guess."""
    with shape(BUGS_DIR / "asyncio_waitfor_cancel.py") as (proc, lines):
        code, data = inspect(proc.pid, report_dir, "--tree")
    assert code == 0
    loop = the(data, look(lines))["diagnosis"]
    assert loop["verdict"] == "idle", loop["summary"]
    assert "one look cannot tell" in loop["summary"]
    assert "next wake-up in" in loop["summary"]


def test_a_look_never_cuts_a_blocked_write_short(report_dir: Path) -> None:
    """A child blocked writing a full pipe is judged from /proc alone: a stack tool's ptrace stop
    would end its write() short, and CPython's buffered stdout would exit 0 with its output cut
    (a look must change nothing). After inspect --tree the child still writes; nothing was lost."""
    with shape("blocked_writer") as (proc, lines):
        child = int(next(x for x in lines if x.startswith("child ")).split()[1])
        code, data = inspect(proc.pid, report_dir, "--tree")
        assert code == 0
        with open(f"/proc/{child}/syscall") as fh:
            assert fh.read().split()[0] in ("1", "64"), "the child's write ended: the look changed it"
        kid = the(data, child)
        assert "not taken" in " ".join(kid["diagnosis"]["missing"]), kid["diagnosis"]["missing"]
