"""The ten-line target contract, from a module in the current directory, end to end."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from conftest import cli_run, load_run, run_cli, workers_of

LOADER = '''
import os, threading

def batches(n=4, seed=0, slot=0, stop_after=None):
    """Yields n-byte batches; ends early after `stop_after` batches when given."""
    i = 0
    while stop_after is None or i < stop_after:
        i += 1
        yield os.urandom(n)

def pooled(n=4):
    yield b"x"

pooled.thread_env = ("MY_POOL_THREADS",)
pooled.describe = lambda: {"rayon_threads": int(os.environ.get("MY_POOL_THREADS", "0")),
                           "env": os.environ.get("MY_POOL_THREADS")}

def not_iterable():
    return 42

def text():
    return "abc"
'''


@pytest.fixture
def here(tmp_path: Path) -> Path:
    (tmp_path / "myloader.py").write_text(LOADER)
    return tmp_path


def run_here(here: Path, *args: str) -> tuple[int, str]:
    r = run_cli(["run", "--report-dir", str(here / "reports"), "--waves", "1", *args], cwd=here, timeout=120)
    return r.returncode, r.stdout + r.stderr


@pytest.mark.slow
def test_a_callable_from_the_current_directory_is_a_target(here: Path) -> None:
    code, out = run_here(
        here, "--target", "myloader:batches", "-o", "n=8", "--workers", "2", "--iterations", "5"
    )
    assert code == 0, out
    run = load_run(here / "reports")
    assert [w["iterations"] for w in workers_of(run)] == [5, 5]
    assert run["target"]["facts"]["contract"] == "callable"


@pytest.mark.slow
def test_an_iterable_that_ends_early_ends_that_worker(here: Path) -> None:
    code, out = run_here(
        here, "--target", "myloader:batches", "-o", "stop_after=3", "--workers", "2", "--iterations", "100"
    )
    assert code == 0, out
    assert [w["iterations"] for w in workers_of(load_run(here / "reports"))] == [3, 3]


@pytest.mark.slow
def test_rayon_sets_the_thread_variables_the_target_declares(here: Path) -> None:
    code, out = run_here(
        here, "--target", "myloader:pooled", "--rayon", "6", "--workers", "1", "--iterations", "1"
    )
    assert code == 0, out
    (w,) = workers_of(load_run(here / "reports"))
    assert w["target_info"]["env"] == "6"
    assert w["rayon_threads"] == 6


@pytest.mark.parametrize(
    ("target", "args", "message"),
    [
        (
            "myloader:batches",
            ("-o", "m=3"),
            "cannot be called with m=3: got an unexpected keyword argument 'm'",
        ),
        ("myloader:nope", (), "module 'myloader' has no 'nope'"),
        ("nomodule:x", (), "cannot import 'nomodule'"),
        (":", (), "not MODULE:CALLABLE"),
        ("json:loads", (), "missing a required argument: 's'"),
        ("myloader:not_iterable", ("--workers", "1"), "returned int, expected an iterable of batches"),
        ("myloader:text", ("--workers", "1"), "returned str, expected an iterable of batches"),
    ],
)
@pytest.mark.slow
def test_a_wrong_shape_is_one_line_and_exit_2(
    here: Path, target: str, args: tuple[str, ...], message: str
) -> None:
    code, out = run_here(here, "--target", target, *args)
    assert code == 2, out
    err = [line for line in out.splitlines() if line.startswith("gvlstress: error:")]
    assert len(err) == 1, out
    assert message in err[0]
    assert "Traceback" not in out


@pytest.mark.slow
def test_the_console_script_imports_from_the_current_directory(here: Path) -> None:
    exe = shutil.which("gvlstress") or str(Path(sys.executable).with_name("gvlstress"))
    import subprocess

    from conftest import cli_env

    r = subprocess.run(
        [
            exe,
            "run",
            "--target",
            "myloader:batches",
            "--workers",
            "1",
            "--waves",
            "1",
            "--iterations",
            "2",
            "--report-dir",
            str(here / "reports"),
        ],
        cwd=here,
        capture_output=True,
        text=True,
        timeout=120,
        env=cli_env(),
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr


PY312 = Path(os.environ.get("PYENV_ROOT", "/root/.pyenv")) / "versions" / "3.12.1" / "bin" / "python"


@pytest.mark.slow
@pytest.mark.skipif(
    sys.version_info[:2] == (3, 12) or not PY312.exists(), reason="needs pyenv's 3.12.1 beside 3.11"
)
def test_python_of_another_version_runs_the_workers_with_its_own_standard_library(report_dir: Path) -> None:
    # GIVEN workers under another CPython version (a spawned child is handed the parent's
    # sys.path before anything runs: the wrong standard library unless gvlstress replaces it)
    run = cli_run(
        [
            "run",
            "--target",
            "shapes",
            "--python",
            str(PY312),
            "--workers",
            "2",
            "--waves",
            "1",
            "--iterations",
            "3",
        ],
        0,
        report_dir,
    )
    # THEN they ran, under that version
    assert {w["target_info"]["python"] for w in workers_of(run)} == {"3.12.1"}
