"""The user's errors are the user's: whatever their target module or prepare() raises (or exits
with) is one line naming it, exit 2, never "a bug in gvlstress" (70) and never a silent exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli

pytestmark = pytest.mark.slow

MODULES: dict[str, bytes] = {
    "raises_runtime": b"raise RuntimeError('boom at import')\n",
    "bad_syntax": b"def f(:\n    pass\n",
    "bad_encoding": b"x = '\xff\xfe'\n",
    "raises_memory": b"raise MemoryError('no room')\n",
    "recurses": b"def f():\n    return f()\nf()\n",
    "exits_zero": b"import sys\nsys.exit(0)\n",
    "exits_three": b"import sys\nsys.exit(3)\n",
    "interrupts": b"raise KeyboardInterrupt\n",
    "wrong_plan": (
        b"class WrongPlan:\n    name = 'wrong'\n    def prepare(self, scenario, workdir):\n"
        b"        return {'entry': 'x:y'}\n"
        b"class PrepareExits:\n    name = 'exits'\n    def prepare(self, scenario, workdir):\n"
        b"        raise SystemExit(5)\n"
    ),
}
"""User modules that fail as they are imported or prepared (written at test time: the repository
keeps no file that does not parse)."""


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("raises_runtime:batches", "importing module 'raises_runtime' raised RuntimeError: boom at import"),
        ("bad_syntax:batches", "importing module 'bad_syntax' raised SyntaxError"),
        ("bad_encoding:batches", "importing module 'bad_encoding' raised SyntaxError"),
        ("raises_memory:batches", "importing module 'raises_memory' raised MemoryError: no room"),
        ("recurses:batches", "importing module 'recurses' raised RecursionError"),
        ("exits_zero:batches", "importing module 'exits_zero' raised SystemExit with code 0"),
        ("exits_three:batches", "importing module 'exits_three' raised SystemExit with code 3"),
        ("interrupts:batches", "importing module 'interrupts' raised KeyboardInterrupt"),
        ("wrong_plan:WrongPlan", "prepare() returned dict, not a TargetPlan"),
        ("wrong_plan:PrepareExits", "prepare() raised SystemExit with code 5"),
    ],
)
def test_a_target_that_fails_before_any_wave_is_one_line_exit_2(
    tmp_path: Path, target: str, says: str
) -> None:
    for name, text in MODULES.items():
        (tmp_path / f"{name}.py").write_bytes(text)
    r = run_cli(["run", "--target", target, "--report-dir", str(tmp_path / "r")], cwd=tmp_path, timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: ")
    assert says in line, line
    assert "internal error" not in line


def test_a_target_that_raises_inside_the_workers_is_exit_3(tmp_path: Path) -> None:
    # the module imports in the harness (it only checks the shape), but its call raises in workers
    (tmp_path / "later.py").write_text("def batches():\n    raise RuntimeError('in the worker')\n")
    r = run_cli(["run", "--target", "later:batches", "--workers", "1", "--waves", "1",
                 "--report-dir", str(tmp_path / "r")], cwd=tmp_path, timeout=120)  # fmt: skip
    assert r.returncode == 3, r.stdout + r.stderr


def test_a_bug_is_one_line_exit_70_with_the_traceback_in_a_file(tmp_path: Path) -> None:

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


@pytest.mark.slow
def test_a_target_whose_own_import_is_missing_says_what_to_install(tmp_path: Path) -> None:
    (tmp_path / "needs_missing.py").write_text(
        "import no_such_dependency_xyz\n\ndef batches():\n    yield 1\n"
    )
    r = run_cli(
        ["run", "--target", "needs_missing:batches", "--report-dir", str(tmp_path / "r")], cwd=tmp_path
    )
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()
    assert "importing 'needs_missing' failed: No module named 'no_such_dependency_xyz'" in line
    assert "install 'no_such_dependency_xyz'" in line
