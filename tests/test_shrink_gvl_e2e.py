"""`gvlstress shrink` end to end on genvarloader 0.36.0 (issue 31): a worker whose loader child
is forked after its rayon pool started hangs (#263's mechanism A); the shrink writes a
standalone reproducer of it, and that file, run by the 0.36.0 environment's interpreter (which
has genvarloader and no gvlstress) with no PYTHONPATH, hangs on its own, leaves no process
behind, and does not hang with its loader child started by forkserver (the fixed variant).

Slow tier: the 0.36.0 environment is made once (`gvl036_python`, tests/conftest.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import pytest

from conftest import GvlRun, alive, load_run, run_cli, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
MARK = "GVLSTRESS_SHRINK_E2E_MARK"
"""In the reproducer's birth environment: every process it starts carries it (spawn passes the
environment on, fork copies it), so one that outlives it can be found by it."""


@dataclass
class Alone:
    """The reproducer run on its own: its exit, its output, its tally, what it started."""

    pid: int
    code: int
    out: str
    tally: dict[str, Any]
    seen: dict[int, int] = field(default_factory=dict)
    """Every descendant seen while it ran: pid -> parent pid."""

    @property
    def loader_children(self) -> list[int]:
        """Descendants whose parent is a descendant too: a worker's own child (its loader child,
        or the forkserver it started and the loader child that forked)."""
        return [pid for pid, ppid in self.seen.items() if ppid != self.pid and ppid in self.seen]


def _marked(mark: str) -> list[str]:
    """Processes carrying `mark` in their environment, as 'pid cmdline'."""
    out = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        try:
            if p.environ().get(MARK) == mark and alive(p.pid):
                out.append(f"{p.pid} {' '.join(p.info['cmdline'] or [])}")
        except psutil.Error:
            continue
    return out


def _alone(python: str, script: Path, launches: int, timeout_s: float, tmp: Path, *more: str) -> Alone:
    """`python -I script --launches N [MORE]` in a bare environment (no PYTHONPATH, no user
    site); its descendants are looked at every 0.25 s while it runs (a fact check, not a wait)."""
    mark, tally = uuid.uuid4().hex, tmp / f"tally-{uuid.uuid4().hex[:8]}.json"
    argv = [python, "-I", str(script), "--launches", str(launches), "--json", str(tally), *more]
    proc = subprocess.Popen(
        argv,
        env={"PATH": "/usr/bin:/bin", MARK: mark},
        cwd=tmp,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    seen: dict[int, int] = {}
    try:
        top = psutil.Process(proc.pid)
        deadline = time.monotonic() + launches * (timeout_s + 60) + 120
        while proc.poll() is None:
            if time.monotonic() > deadline:
                pytest.fail(f"{script.name} ran past its {launches} launches of {timeout_s:g}s")
            try:
                for child in top.children(recursive=True):
                    seen.setdefault(child.pid, child.ppid())
            except psutil.Error:
                pass
            try:
                proc.wait(timeout=0.25)
            except subprocess.TimeoutExpired:
                continue
        out = proc.communicate(timeout=60)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=60)
    # nothing it started outlives it: no process carries its mark or names the file
    wait_for(lambda: not _marked(mark) and not _naming(script), 30, f"what {script.name} started to go")
    return Alone(proc.pid, proc.returncode, out, json.loads(tally.read_text()), seen)


def _naming(script: Path) -> list[int]:
    """Processes whose command line names `script` (by its full path)."""
    out = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        if any(str(script) in part for part in p.info["cmdline"] or []) and alive(p.pid):
            out.append(p.pid)
    return out


# in one xdist group with the test of tests/test_genvarloader_e2e.py that reads the same run
@pytest.mark.xdist_group("gvl-fork")
@pytest.mark.ci_seconds(250)
def test_genvarloaders_fork_after_the_pool_shrinks_to_a_reproducer_that_hangs_without_gvlstress(
    tmp_path: Path, gvl036_python: str, gvl036_fork_run: GvlRun
) -> None:
    # GIVEN the 0.36.0 interpreter, which has genvarloader and cannot import gvlstress
    bare = subprocess.run(
        [gvl036_python, "-I", "-c", "import genvarloader\ntry:\n import gvlstress\nexcept ImportError:\n print('absent')"],
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )  # fmt: skip
    assert bare.stdout.strip() == "absent", bare.stdout + bare.stderr
    # AND a run of 2 workers whose loader child is forked after their rayon pool started: it hangs
    # (the run tests/test_genvarloader_e2e.py judges: tests/conftest.py)
    result, report_dir = gvl036_fork_run
    assert result.returncode == 1, result.stdout + result.stderr
    run = load_run(report_dir)
    assert run["waves"][0]["verdict"] == "deadlock"
    (run_json,) = report_dir.glob("*/run.json")
    run_dir = run_json.parent

    # WHEN it is shrunk on a budget of one step, its reproducer measured once
    shrunk = run_cli(
        ["shrink", str(run_dir), "--max-launches", "3", "--step-launches", "3", "--measure", "1"], timeout=900
    )
    assert shrunk.returncode == 1, shrunk.stdout + shrunk.stderr
    state = json.loads((run_dir / "shrink.json").read_text())
    # THEN the one step (fewer workers) is kept, decided by its launches, and shrink.md says so
    assert [(s["label"], s["decision"], s["hangs"]) for s in state["steps"]] == [
        ("workers 2 -> 1", "kept", 3)
    ]
    assert state["minimal"] == {"workers": 1}
    assert state["warnings"] == []
    assert state["files"] == ["shrink/reproduce.py", "shrink/scenario.toml", "shrink/run.sh"]
    shown = (run_dir / "shrink.md").read_text()
    assert "`shrink/reproduce.py` imports the standard library and genvarloader only" in shown
    assert "| 1 | workers 2 -> 1 | 3 | 3 | kept |" in shown
    # AND the reproducer carries the loader child and points at the dataset the run opened,
    # which outlives the run (gvlstress's dataset cache, not the run's own directories)
    rep = state["reproduction"]
    opened = run["target"]["facts"]["dataset"]
    assert rep["recipe"]["options"] == {
        "dataset": opened["dataset"],
        "reference": opened["reference"],
        "loader": "fork",
    }
    assert Path(opened["dataset"]).is_dir()
    assert Path(opened["reference"]).is_file()
    assert not Path(opened["dataset"]).is_relative_to(report_dir)
    script = run_dir / "shrink" / "reproduce.py"
    text = script.read_text()
    assert not re.search(r"^\s*(import|from) gvlstress", text, re.M)
    # its timeout leaves room for genvarloader's import: three times how long the hang took to catch
    said = re.search(r"^TIMEOUT_S = ([\d.]+)$", text, re.M)
    assert said is not None
    timeout_s = float(said.group(1))
    assert timeout_s == rep["timeout_s"] == round(max(10.0, min(120.0, 3 * run["waves"][0]["detect_s"])), 1)
    # AND the shrink measured it alone: it hung
    assert state["measured"]["rate"]["k"] == state["measured"]["rate"]["n"] == 1

    # WHEN the file is run by that interpreter alone (-I, a bare environment), one launch (the
    # shrink measured one too, at its own TIMEOUT_S; a tally over several launches is
    # tests/test_shrink_e2e.py's), given at most 30 s (--timeout): a hung launch waits its whole
    # timeout, three times a loaded host's detection (up to 120 s), and the hang is its loader
    # child's, forked within seconds of the import
    hung_s = min(timeout_s, 30.0)
    hung = _alone(gvl036_python, script, 1, hung_s, tmp_path, "--timeout", f"{hung_s:g}")
    # THEN the launch hangs, it says so, exits 1, and the launch's worker had its loader child
    assert hung.code == 1, hung.out
    assert "hung 1 of 1 launches (100%" in hung.out, hung.out
    assert (hung.tally["hung"], hung.tally["error"], hung.tally["crashed"]) == (1, 0, 0), hung.tally
    assert len(hung.loader_children) >= 1, hung.seen

    # WHEN its loader child is started by forkserver instead (the fixed variant: a fresh process
    # has a rayon pool of its own), at the same timeout
    fixed = tmp_path / "fixed.py"
    switched = re.sub(
        r"^((?:WARM_)?OPTIONS = .*)'loader': 'fork'", r"\1'loader': 'forkserver'", text, flags=re.M
    )
    assert switched.count("'loader': 'forkserver'") == 2
    fixed.write_text(switched)
    control = _alone(gvl036_python, fixed, 1, timeout_s, tmp_path)
    # THEN the launch does not hang, and it exits 0
    assert control.code == 0, control.out
    assert "hung 0 of 1 launches" in control.out, control.out
    assert control.tally["ok"] == 1, control.tally
    assert len(control.loader_children) >= 1, control.seen
