"""What a write with ``--force`` may replace: a regular file, or nothing. A device, a FIFO, a
directory, or a link to one of them (or to nothing) is refused in one line, exit 2, and left as
it was (issue 37: ``doctor --export /dev/null --force`` as root made /dev/null a regular file)."""

from __future__ import annotations

import os
import re
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from gvlstress.errors import UsageError
from gvlstress.system.safeio import replaceable, write_text_atomic

EXAMPLE = ROOT / "reports" / "examples" / "lock-across-par-iter"


def _fifo(p: Path) -> None:
    os.mkfifo(p)


def _device(p: Path) -> None:
    """A character device like /dev/null (its own node: the test never goes near the real one)."""
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    os.mknod(p, stat.S_IFCHR | 0o666, os.makedev(1, 3))


def _directory(p: Path) -> None:
    p.mkdir()


def _link_to(make: Callable[[Path], None]) -> Callable[[Path], None]:
    def made(p: Path) -> None:
        target = p.with_name(p.name + ".target")
        make(target)
        p.symlink_to(target)

    return made


def _dangling(p: Path) -> None:
    p.symlink_to(p.with_name("nothing-here"))


KINDS = {
    "device": (_device, "is a character device"),
    "fifo": (_fifo, "is a FIFO"),
    "directory": (_directory, "is a directory"),
    "link to a fifo": (_link_to(_fifo), "is a FIFO (through a symbolic link)"),
    "link to a device": (_link_to(_device), "is a character device (through a symbolic link)"),
    "link to a directory": (_link_to(_directory), "is a directory (through a symbolic link)"),
    "dangling link": (_dangling, "is a symbolic link to nothing"),
}


def _kind(p: Path) -> tuple[bool, int]:
    """What is at `p` (a link, and the mode of what it names): the test's proof nothing changed."""
    return p.is_symlink(), os.stat(p).st_mode if p.exists() else -1


@pytest.mark.parametrize("kind", KINDS)
def test_a_write_never_replaces_what_is_not_a_regular_file(kind: str, tmp_path: Path) -> None:
    make, said = KINDS[kind]
    path = tmp_path / "host.toml"
    make(path)
    before = _kind(path)
    with pytest.raises(UsageError, match=re.escape(said)):
        write_text_atomic(path, "x = 1\n")
    assert _kind(path) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temp left


def test_a_link_to_a_regular_file_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "profiles" / "host.toml"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "host.toml"
    link.symlink_to(real)
    assert replaceable(link) == real
    write_text_atomic(link, "new\n")
    assert link.is_symlink()
    assert real.read_text() == "new\n"


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["device", "fifo", "link to a fifo", "link to a device", "dangling link"])
def test_doctor_export_force_refuses_what_is_not_a_regular_file_in_one_line(
    kind: str, tmp_path: Path
) -> None:
    # GIVEN something that is not a regular file where the profile would go
    make, said = KINDS[kind]
    path = tmp_path / "host.toml"
    make(path)
    before = _kind(path)
    # WHEN doctor exports over it with --force
    r = run_cli(["doctor", "--export", str(path), "--force"], timeout=60)
    # THEN one line with a hint, exit 2, and it is still what it was
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert said in line
    assert "(hint: " in line
    assert _kind(path) == before


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "link to a device", "directory"])
def test_report_force_refuses_a_report_that_is_not_a_regular_file(kind: str, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    shutil.copytree(EXAMPLE, run_dir)
    (run_dir / "report.md").unlink()
    make, said = KINDS[kind]
    make(run_dir / "report.md")
    before = _kind(run_dir / "report.md")
    r = run_cli(["report", str(run_dir), "--force"], timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert said in line
    assert _kind(run_dir / "report.md") == before
