"""Bad input that once crashed gvlstress (exit 70) or passed for a hang (exit 1), issue 37: a
host profile whose thread knob no environment can hold, ``shrink --ratio inf``, a tampered
shrink.json, ``doctor --export --pid`` of a zombie or a kernel thread. Each is one line with a
hint that names options the command has, exit 2, before anything starts."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ROOT, run_cli, wait_for
from gvlstress.hosts.profile_file import render
from test_profile import host_263

EXAMPLE = ROOT / "reports" / "examples" / "lock-across-par-iter"


def _one_line(r: subprocess.CompletedProcess[str]) -> str:
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: ")
    assert "(hint: " in line
    assert "Traceback" not in r.stderr
    return line


@pytest.mark.slow
@pytest.mark.parametrize(
    ("threads", "says"),
    [
        ({"OMP_A=B": "2"}, "[threads] OMP_A=B is not a thread knob"),
        ({"OMP_NUM_THREADS": "2\x00"}, "a NUL character"),
        ({"RAYON_NUM_THREADS": "1" * 1_000_000}, "1000000 characters, longer than any thread setting"),
        ({"OMP_NUM_THREADS": "4" * 1_000_000}, "1000000 characters, longer than any thread setting"),
    ],
)
def test_run_like_a_profile_whose_knob_no_worker_can_be_given_is_exit_2(
    threads: dict[str, str], says: str, tmp_path: Path
) -> None:
    # GIVEN a host profile whose [threads] holds a name with '=', a NUL, or a 1 MB value
    profile = tmp_path / "host.toml"
    profile.write_text(render(dataclasses.replace(host_263(), threads=threads)))
    # WHEN a run is asked to recreate it
    r = run_cli(["run", "--like", str(profile), "--report-dir", str(tmp_path / "r")], timeout=120)
    # THEN it is refused in one line, exit 2, and no wave started (no run directory)
    assert says in _one_line(r)
    assert not (tmp_path / "r").exists() or not any((tmp_path / "r").iterdir())


@pytest.mark.slow
@pytest.mark.parametrize("ratio", ["inf", "nan", "1e400"])
def test_shrink_with_a_ratio_that_states_no_test_is_exit_2(ratio: str, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    shutil.copytree(EXAMPLE, run_dir)
    r = run_cli(["shrink", str(run_dir), "--ratio", ratio, "--measure", "0"], timeout=120)
    assert "--ratio" in _one_line(r)
    assert not (run_dir / "shrink.json").exists()


@pytest.fixture
def zombie() -> Iterator[int]:
    """A zombie: a child that exited and that its parent (started here) does not wait for."""
    code = "import os, sys\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nprint(pid, flush=True)\nsys.stdin.read()"
    parent = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        pid = int(parent.stdout.readline())

        def state() -> str:
            return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]

        wait_for(lambda: state() == "Z", 10, "the child to become a zombie")
        yield pid
    finally:
        parent.kill()
        parent.wait(10)


def _kernel_thread() -> int:
    """A kernel thread's pid (kthreadd is 2 where the pid namespace is the host's)."""
    for entry in sorted(Path("/proc").iterdir(), key=lambda p: (not p.name.isdigit(), p.name)):
        if entry.name.isdigit():
            try:
                if not os.readlink(entry / "exe"):
                    continue
            except FileNotFoundError:  # a kernel thread has no executable
                if (entry / "environ").exists():
                    return int(entry.name)
            except OSError:
                continue
    pytest.skip("no kernel thread is visible here (a pid namespace of its own)")


@pytest.mark.slow
def test_doctor_export_of_a_zombie_or_a_kernel_thread_is_exit_2_with_doctors_own_options(
    zombie: int, tmp_path: Path
) -> None:
    for pid, what in ((zombie, "a zombie"), (_kernel_thread(), "a kernel thread")):
        r = run_cli(["doctor", "--export", str(tmp_path / f"h{pid}.toml"), "--pid", str(pid)], timeout=120)
        line = _one_line(r)
        assert f"--pid {pid}: {what}" in line
        assert "--report-dir" not in line  # doctor has no such option
        assert not (tmp_path / f"h{pid}.toml").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("edit", "says"),
    [
        ({"stated_rate": 0}, "stated_rate 0.0 and ratio"),
        ({"ratio": -4}, "and ratio -4.0 state no test"),
        ({"ratio": 1e308}, "state no test"),
        ({"alpha": 0.9}, "alpha 0.9 and beta"),
        ({"step": {"changes": {"bogus": 1}}}, "'bogus' is not a setting"),
        ({"step": {"changes": {"workers": -5}}}, "workers"),
        ({"step": {"hangs": 9, "launches": 1}}, "9/1 hung"),
    ],
)
def test_a_tampered_shrink_json_is_refused_in_one_line(
    edit: dict[str, object], says: str, tmp_path: Path
) -> None:
    # GIVEN a shrink that stopped after one launch (its state saved)
    run_dir = tmp_path / "run"
    shutil.copytree(EXAMPLE, run_dir)
    first = run_cli(["shrink", str(run_dir), "--max-launches", "1", "--measure", "0"], timeout=300)
    assert first.returncode == 1, first.stdout + first.stderr
    state = json.loads((run_dir / "shrink.json").read_text())
    assert state["finished"] is False
    # AND its shrink.json edited by hand
    step = edit.pop("step", None)
    state.update(edit)
    if isinstance(step, dict):
        state["steps"][0].update(step)
    (run_dir / "shrink.json").write_text(json.dumps(state))
    # WHEN it is resumed THEN one line names what is wrong, exit 2
    r = run_cli(["shrink", str(run_dir), "--measure", "0"], timeout=300)
    line = _one_line(r)
    assert says in line
    assert "--force" in line
