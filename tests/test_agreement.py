"""One look, one verdict: ``run`` at a stall and ``inspect --tree`` name every real hang alike.

For every real-bug catalogue entry this environment runs and every hang the live-process tests
use, the program is started once and, on that same hang:

- ``inspect --tree`` judges its root (as a user would), and the hung process's line is read;
- ``run``'s look at a quiet worker (`supervisor.probing.look_at_workers`: the function the
  prober calls at the stall, with the root as the worker whose heartbeat went quiet) judges it.

Both names must be the entry's, and equal; the rows are written to the report directory as the
agreement table (``GVLSTRESS_AGREEMENT=docs/agreement-table.md`` writes the documentation's
copy). `test_run_names_each_shape_at_the_stall` runs real ``gvlstress run`` waves over one entry
of every shape (``--target program``), so the stall path is exercised end to end too, and
`test_a_rule_added_once_reaches_run_and_inspect` adds a rule in one place and sees both use it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import ROOT, SUPPORT, cli_env, run_cli
from gvlstress.controls.catalogue import CATALOGUE
from gvlstress.judge import names
from gvlstress.probes.interpreter import interpreter, satisfied
from gvlstress.supervisor.probing import look_at_workers
from test_real_processes import CORPUS, inspect, shape

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


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


HANGS = [
    *(
        Hang(b.name, b.script, b.pattern, b.args, b.env, packages=b.packages, python=b.python)
        for b in CATALOGUE
    ),
    *(
        Hang(n, CORPUS / f"{n}.py", p, source="live-process tests")
        for n, p in (
            ("lock_inversion", names.PY_LOCK_ORDER),
            ("lost_wakeup", names.LOST_WAKEUP),
            ("join_on_waiter", names.LOST_WAKEUP),
            ("native_relock", names.UNRECOGNISED),
            ("native_exit_join", names.EXIT_DESTRUCTOR),
            ("pipe_cycle", names.PIPE_CYCLE),
            ("pool_wedged", names.EXECUTOR_WEDGED),
            ("gil_spin", names.GIL_SPIN),
            ("gomp_fork", names.FORK_AFTER_INIT),
        )
    ),
]
ROWS: list[tuple[str, str, str, str, str]] = []
BEGIN, END = "<!-- agreement table: begin -->", "<!-- agreement table: end -->"
"""Where the table goes in the documentation's page (``GVLSTRESS_AGREEMENT=docs/reference/agreement.md``)."""


@pytest.fixture(scope="module", autouse=True)
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Write the agreement table once every row is in (and the docs' copy when asked)."""
    yield
    if not ROWS:
        return
    lines = [
        "| hang | from | expected | `run` at the stall | `inspect --tree` | agree |",
        "|---|---|---|---|---|---|",
        *(
            f"| {n} | {src} | {e} | {r} | {i} | {'yes' if r == i == e else '**no**'} |"
            for n, src, e, r, i in ROWS
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


def _params() -> list[object]:
    """Every hang; the catalogue entries whose pins this environment lacks are ``pypi``."""
    here = [satisfied(h.packages, h.python) or h.source != "catalogue" for h in HANGS]
    return [
        pytest.param(h, id=h.name, marks=() if ok else (pytest.mark.pypi, pytest.mark.timeout(1800)))
        for h, ok in zip(HANGS, here, strict=True)
    ]


@pytest.mark.parametrize("hang", _params())
def test_run_and_inspect_name_the_same_hang_alike(hang: Hang, report_dir: Path) -> None:
    # GIVEN a real hang, started once (with its pinned packages' interpreter where it has some)
    python, why = (
        interpreter(hang.packages, hang.python) if hang.source == "catalogue" else (sys.executable, "")
    )
    if python is None:
        pytest.skip(why)
    with shape(hang.program, *hang.args, python=python, env=dict(hang.env)) as (proc, lines):
        hung = _hung_pid(lines, proc.pid)
        # WHEN inspect --tree judges its root, and run's look judges the root as a quiet worker
        code, data = inspect(proc.pid, report_dir, "--tree")
        seen = look_at_workers({proc.pid: None})
    by_pid = {p["pid"]: p for p in data["processes"]}
    assert hung in by_pid, f"inspect --tree did not look at {hung}: {sorted(by_pid)}"
    said = by_pid[hung]["diagnosis"]
    run_said = seen.judged[proc.pid]
    run_name = (
        run_said.named.pattern
        if run_said.hung and run_said.named
        else f"not a hang ({run_said.finding.kind})"
    )
    inspect_name = said["pattern"] if code == 1 and said["pattern"] else f"not a hang ({said['verdict']})"
    ROWS.append((hang.name, hang.source, hang.expected, run_name, inspect_name))
    # THEN both name the entry's pattern
    assert inspect_name == hang.expected, said["summary"]
    assert run_name == inspect_name, run_said.finding.reason


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
    args = ["--target", "program", "-o", f"path={bug.script}", "--workers", "1", "--waves", "1"]
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
