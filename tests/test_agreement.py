"""One look, one verdict: ``run`` at a stall, ``inspect --tree`` and ``watch`` name every real
hang alike.

For every real-bug catalogue entry this environment runs and every hang the live-process tests
use, the program is started once, under ``gvlstress watch --stall 2 --on-hang keep`` (watch's
name is the first), and on that same hang:

- ``inspect --tree`` judges its root (as a user would), and the hung process's line is read;
- ``run``'s look at a quiet worker (`supervisor.probing.look_at_workers`: the function the
  prober calls at the stall, with the root as the worker whose heartbeat went quiet) judges it.

All three names must be the entry's, and equal; the rows are written to the report directory as
the agreement table (``GVLSTRESS_AGREEMENT=docs/reference/agreement.md`` writes the
documentation's copy). `test_run_names_each_shape_at_the_stall` runs real ``gvlstress run``
waves over one entry of every shape (``--target program``), so the stall path is exercised end to
end too, and `test_a_rule_added_once_reaches_run_and_inspect` adds a rule in one place and sees
both use it."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

from conftest import ROOT, SUPPORT, cli_env, run_cli, wait_for
from gvlstress.api import realbugs
from gvlstress.controls.catalogue import CATALOGUE
from gvlstress.controls.realbug import script
from gvlstress.controls.realbugs import BUGS_DIR, NO_RUNTIME
from gvlstress.judge import names
from gvlstress.judge.ends import END_OF
from gvlstress.model.waitfor import End
from gvlstress.probes.interpreter import interpreter, satisfied
from gvlstress.supervisor.probing import look_at_workers
from test_real_processes import CORPUS, READY_S, end_group, inspect, shape

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), pytest.mark.ci_seconds(10)]


@dataclass(frozen=True)
class Hang:
    name: str
    program: Path
    expected: str
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    source: str = "catalogue"
    packages: tuple[str, ...] = ()
    """Pinned packages beyond this environment's (a venv built once in the cache: ``-m pypi``)."""
    python: str | None = None
    end: End | None = None
    """Where its chain ends when not where its pattern's does."""

    @property
    def expected_end(self) -> End:
        return self.end or END_OF[self.expected]

    @property
    def watch_args(self) -> tuple[str, ...]:
        """A respawn loop keeps the tree changing (workers start and end, the launcher writes
        to each new one): /proc counts that as activity, so such a job is watched the way the
        docs say to, with an explicit progress signal (here a heartbeat it never touches)."""
        return (
            ("--heartbeat", "/nonexistent/gvlstress-heartbeat") if self.expected == names.RESPAWN_LOOP else ()
        )


HANGS = [
    *(
        Hang(b.name, script(b), b.pattern, b.args, b.env, packages=b.packages, python=b.python, end=b.end)
        for b in CATALOGUE
    ),
    *(
        Hang(
            n,
            CORPUS / f"{n}.py" if (CORPUS / f"{n}.py").exists() else BUGS_DIR / f"{n}.py",
            p,
            source="live-process tests",
            end=e,
        )
        for n, p, e in (
            ("lock_inversion", names.PY_LOCK_ORDER, None),
            ("lost_wakeup", names.LOST_WAKEUP, None),
            ("join_on_waiter", names.LOST_WAKEUP, None),
            ("join_lock_cycle", names.JOIN_BLOCKED, End.CYCLE),
            ("cached_reentry", names.SELF_LOCK, None),
            ("loop_fork_emptied", names.LOOP_LOST_WAKEUP, None),
            ("sem_join_cycle", names.WAIT_CYCLE, None),
            ("mp_lock_order", names.WAIT_CYCLE, None),
            ("read_under_lock", names.SELF_FD, End.CYCLE),
            ("alarm_blocked", names.FOREVER_PARTY, None),
            ("pool_callback_apply", names.RESULTS_SELF_WAIT, None),
            ("nested_monitor", names.NESTED_MONITOR, None),
            ("event_queue_cycle", names.WAIT_CYCLE, None),
            ("lock_across_pool", names.LOCK_ACROSS, None),
            ("native_relock", names.SELF_LOCK, None),
            ("native_mutex_cycle", names.LOCK_ORDER, None),
            ("native_mutex_orphan", names.MUTEX_OWNER_GONE, None),
            ("native_fork_held_mutex", names.FORK_HELD_LOCK, None),
            ("tcp_self_call", names.SELF_FD, None),
            ("tcp_accept_cycle", names.WAIT_CYCLE, None),
            ("unix_self_call", names.SELF_FD, None),
            ("server_shutdown_client", names.SELF_LOCK, None),
            ("pty_self_read", names.SELF_FD, None),
            ("stopped_by_terminal", names.STOPPED_CHILD, None),
            ("exit_del_waits", names.EXIT_FINALIZER_WAIT, None),
            ("native_exit_join", names.EXIT_DESTRUCTOR, None),
            ("pipe_cycle", names.PIPE_CYCLE, None),
            ("pool_wedged", names.EXECUTOR_WEDGED, None),
            ("gil_spin", names.GIL_SPIN, None),
            ("gomp_fork", names.FORK_AFTER_INIT, None),
        )
    ),
]
ROWS: list[tuple[str, str, str, str, str, str, str]] = []
WATCH_STALL_S = 2.0
"""The agreement test's --stall for watch: short, so the table costs little; the rule is the same."""
BEGIN, END = "<!-- agreement table: begin -->", "<!-- agreement table: end -->"
"""Where the table goes in the documentation's page (``GVLSTRESS_AGREEMENT=docs/reference/agreement.md``)."""


@pytest.fixture(scope="module", autouse=True)
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Write the agreement table once every row is in (and the docs' copy when asked)."""
    yield
    if not ROWS:
        return
    lines = [
        "| hang | from | expected | `run` at the stall | `inspect --tree` | `watch` | watch named it after | agree |",
        "|---|---|---|---|---|---|---|---|",
        *(
            f"| {n} | {src} | {e} | {r} | {i} | {w} | {t} | {'yes' if r == i == w == e else '**no**'} |"
            for n, src, e, r, i, w, t in ROWS
        ),
    ]
    out = tmp_path_factory.getbasetemp() / "agreement-table.md"
    out.write_text("\n".join(lines) + "\n")
    if target := os.environ.get("GVLSTRESS_AGREEMENT"):
        page = Path(target).read_text()
        head, _, rest = page.partition(BEGIN)
        _, _, tail = rest.partition(END)
        Path(target).write_text(f"{head}{BEGIN}\n" + "\n".join(lines) + f"\n{END}{tail}")


def _hung_pid(lines: list[str], root: int) -> int:
    """The process the program names as hung (`look PID`), else its root."""
    return next((int(x.split()[1]) for x in lines if x.startswith("look ")), root)


GROUPS = 3
"""CI's slow pass spreads the hangs over this many xdist groups (tests/scheduling.py): one worker
would take them all for minutes. Each worker then writes the rows it judged; the documentation's
copy is written from a run of them all in one process (no xdist, or ``--dist loadfile``)."""


def _params() -> list[object]:
    """Every hang; the catalogue entries whose pins this environment lacks are ``pypi``."""
    here = [satisfied(h.packages, h.python) or h.source != "catalogue" for h in HANGS]
    return [
        pytest.param(
            h,
            id=h.name,
            marks=(pytest.mark.xdist_group(f"agreement-{i % GROUPS}"),)
            + (() if ok else (pytest.mark.pypi, pytest.mark.timeout(1800))),
        )
        for i, (h, ok) in enumerate(zip(HANGS, here, strict=True))
    ]


@contextmanager
def watched(hang: Hang, python: str, out: Path) -> Iterator[tuple[int, list[str], dict[str, Any], float]]:
    """The hang started under ``gvlstress watch --on-hang keep`` (its stdout passed through, so the
    handshake is read as ever); yields once watch has reported it: the job's root pid, the
    handshake, watch's inspect.json, and the seconds from `ready` to the report. On the way out
    watch is sent SIGTERM (it ends the job's tree and writes its report), and nothing is left."""
    scratch = tempfile.mkdtemp(prefix="gvlstress-agree-")
    cmd = [
        sys.executable,
        "-m",
        "gvlstress",
        "watch",
        "--stall",
        str(WATCH_STALL_S),
        "--on-hang",
        "keep",
        *hang.watch_args,
    ]
    cmd += ["--report-dir", str(out), "--", python, str(hang.program), *hang.args]
    with open(Path(scratch) / "watch.stderr", "wb") as err:
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=err,
            start_new_session=True,
            env=cli_env(**dict(hang.env), TMPDIR=scratch),
        )
    try:
        lines = realbugs.handshake(proc, READY_S)
        if "ready" not in lines:
            if proc.poll() == NO_RUNTIME:
                pytest.skip(f"{hang.name}: this host lacks its runtime")
            pytest.fail(f"{hang.name} did not get ready under watch (printed {lines}, code {proc.poll()})")
        ready = time.monotonic()
        report = wait_for(
            lambda: next(out.glob("*/inspect.json"), None), WATCH_STALL_S + 60, "watch's report"
        )
        took = time.monotonic() - ready
        root = next(
            c.pid for c in psutil.Process(proc.pid).children() if str(hang.program) in " ".join(c.cmdline())
        )
        yield root, lines, json.loads(report.read_text()), took
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)
        end_group(proc)
        shutil.rmtree(scratch, ignore_errors=True)


def _name(pattern: str | None, hung: bool, verdict: str, end: str | None) -> str:
    """A hang's name with where its wait-for chain ends ('lock-order inversion -> cycle')."""
    return f"{pattern} -> {end}" if hung and pattern else f"not a hang ({verdict})"


def _end(diagnosis: dict[str, Any]) -> str | None:
    chain = diagnosis.get("waitfor")
    return str(chain["end"]) if chain else None


@pytest.mark.parametrize("hang", _params())
def test_run_inspect_and_watch_name_the_same_hang_alike(hang: Hang, report_dir: Path) -> None:
    # GIVEN a real hang, started once under watch (with its pinned packages' interpreter where
    # it has some), and reported by watch when it went quiet
    python, why = (
        interpreter(hang.packages, hang.python) if hang.source == "catalogue" else (sys.executable, "")
    )
    if python is None:
        pytest.skip(why)
    with watched(hang, python, report_dir / "watch") as (root, lines, by_watch, took):
        hung = _hung_pid(lines, root)
        # WHEN inspect --tree judges its root, and run's look judges the root as a quiet worker
        code, data = inspect(root, report_dir / "inspect", "--tree")
        seen = look_at_workers({root: None})
    by_pid = {p["pid"]: p for p in data["processes"]}
    assert hung in by_pid, f"inspect --tree did not look at {hung}: {sorted(by_pid)}"
    said = by_pid[hung]["diagnosis"]
    inspect_name = _name(said["pattern"], code == 1, said["verdict"], _end(said))
    run_said = seen.judged[root]
    run_name = _name(
        run_said.named.pattern if run_said.named else None,
        run_said.hung,
        run_said.finding.kind,
        run_said.waitfor.end if run_said.waitfor else None,
    )
    watch_said = next((p["diagnosis"] for p in by_watch["processes"] if p["pid"] == hung), None)
    watch_name = (
        _name(
            watch_said["pattern"],
            watch_said["verdict"] in ("deadlock", "livelock"),
            watch_said["verdict"],
            _end(watch_said),
        )
        if watch_said
        else "not looked at"
    )
    expected = f"{hang.expected} -> {hang.expected_end}"
    ROWS.append((hang.name, hang.source, expected, run_name, inspect_name, watch_name, f"{took:.1f}s"))
    # THEN all three name the entry's pattern, and its chain ends where the pattern's does
    assert inspect_name == expected, said["summary"]
    assert run_name == inspect_name, run_said.finding.reason
    assert watch_name == inspect_name, watch_said["summary"] if watch_said else by_watch["processes"]


SHAPES = {
    "cycle": "queue-join-no-task-done",
    "lost task": "pool-worker-killed",
    "peer": "mp-pipe-recv-dead-worker",
    "fork": "polars-fork",
    "tree": "executor-killed-mid-send",
    "spin": "pool-result-unpickle-spin",
    "dead lock holder": "pool-lock-holder-killed",
    "respawn loop": "pool-initializer-raises",
    "dropped item": "mp-queue-put-unpicklable",
    "event loop": "asyncio-condition-notify-lost",
}


@pytest.mark.parametrize(("kind", "entry"), list(SHAPES.items()), ids=list(SHAPES))
def test_run_names_each_shape_at_the_stall(kind: str, entry: str, report_dir: Path) -> None:
    """A real `gvlstress run` over the program: named at the stall (stall + the look's window),
    never left to the launch timeout, with the name inspect gives."""
    bug = next(b for b in CATALOGUE if b.name == entry)
    args = ["--target", "program", "-o", f"path={script(bug)}", "--workers", "1", "--waves", "1"]
    args += ["--stall", "3", "--startup-grace", "3", "--timeout", "120", "--report-dir", str(report_dir)]
    if bug.args:
        args += ["-o", "args=" + " ".join(bug.args)]
    result = run_cli(["run", *args], 240, ROOT, **dict(bug.env))
    assert result.returncode == 1, result.stdout + result.stderr
    (path,) = report_dir.glob("*/run.json")
    wave = json.loads(path.read_text())["waves"][0]
    (worker,) = wave["workers"]
    assert worker["diagnosis"]["pattern"] == bug.pattern, worker["diagnosis"]["summary"]
    assert wave["detected_by"] == "stall", wave


def test_a_rule_added_once_reaches_run_and_inspect(report_dir: Path) -> None:
    """One rule inserted into `judge.across.RULES` (tests/support/newrule.py) names the process it
    knows, in `run` at the stall and in `inspect`, with no other change; without it, inspect
    calls the same process idle (the rule, not the process, made the name)."""
    newrule = [sys.executable, str(SUPPORT / "newrule.py")]
    program = SUPPORT / "marked_sleep.py"
    args = ["run", "--target", "program", "-o", f"path={program}", "--workers", "1", "--waves", "1"]
    args += [
        "--stall",
        "2",
        "--startup-grace",
        "2",
        "--timeout",
        "60",
        "--report-dir",
        str(report_dir / "run"),
    ]
    ran = subprocess.run(
        [*newrule, *args], capture_output=True, text=True, timeout=240, env=cli_env(), check=False
    )
    assert ran.returncode == 1, ran.stdout + ran.stderr
    (path,) = (report_dir / "run").glob("*/run.json")
    (worker,) = json.loads(path.read_text())["waves"][0]["workers"]
    assert worker["diagnosis"]["pattern"] == "a rule added once"
    with shape(program) as (proc, _):
        looked = [*newrule, "inspect", str(proc.pid), "--report-dir", str(report_dir / "inspect")]
        seen = subprocess.run(looked, capture_output=True, text=True, timeout=240, env=cli_env(), check=False)
        code, data = inspect(proc.pid, report_dir / "plain")
    assert seen.returncode == 1, seen.stdout + seen.stderr
    (path,) = (report_dir / "inspect").glob("*/inspect.json")
    assert json.loads(path.read_text())["processes"][0]["diagnosis"]["pattern"] == "a rule added once"
    assert (code, data["processes"][0]["diagnosis"]["verdict"]) == (0, "idle")


def test_run_names_a_fork_after_the_harness_started_a_pool(report_dir: Path) -> None:
    """``run --start-method fork`` over a target whose module starts polars' pools at import: the
    pools' threads live in the harness that forked the worker, and run's look reads the harness
    as the fork's parent (its native stacks), so it names the hang as inspect does."""
    args = [
        "run",
        "--target",
        "fork_target:batches",
        "--start-method",
        "fork",
        "--workers",
        "1",
        "--waves",
        "1",
    ]
    args += ["--stall", "3", "--startup-grace", "3", "--timeout", "90", "--report-dir", str(report_dir)]
    result = run_cli(args, timeout=240)
    assert result.returncode == 1, result.stdout + result.stderr
    (path,) = report_dir.glob("*/run.json")
    wave = json.loads(path.read_text())["waves"][0]
    (worker,) = wave["workers"]
    assert worker["diagnosis"]["pattern"] == names.FORK_AFTER_INIT, worker["diagnosis"]["summary"]
    assert wave["detected_by"] == "stall"
