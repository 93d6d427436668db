"""Cores are secrets on disk, and a disk fills (issue 37). A kept core is a worker's memory: 0600
in a 0700 folder. A core that does not fit leaves nothing partial behind (no uncompressed
``.raw`` memory), and a deadlock found before the disk filled is still reported: exit 1, and
report.md says what could not be written.

The full disks are small tmpfs mounts made (and removed) here, so root only.
"""

from __future__ import annotations

import contextlib
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import cli_run, run_cli, workers_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]
DEADLOCK = ["run", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "2", "--waves", "1"]


@contextlib.contextmanager
def _small_disk(where: Path, size: str) -> Iterator[Path]:
    """A tmpfs of `size` mounted at `where` for the block, unmounted after."""
    where.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({made.stderr.strip()})")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30, check=False)


def _left_partial(root: Path) -> list[str]:
    return [str(p) for p in root.rglob(".*") if p.is_file()]


def test_a_kept_core_is_readable_by_its_owner_only(report_dir: Path) -> None:
    run = cli_run([*DEADLOCK, "--keep-core"], 1, report_dir)
    (w,) = workers_of(run)
    kept = w["capture"]["core"]
    assert kept["ok"], kept
    run_dir = next(report_dir.glob("*/run.json")).parent
    assert stat.S_IMODE((run_dir / kept["path"]).stat().st_mode) == 0o600
    assert stat.S_IMODE((run_dir / "cores").stat().st_mode) == 0o700
    assert _left_partial(run_dir / "cores") == []


def test_a_core_that_fills_the_disk_leaves_nothing_partial_and_the_deadlock_is_reported(
    tmp_path: Path,
) -> None:
    # GIVEN a report directory on a disk of 3 MB (a worker's memory is more)
    with _small_disk(tmp_path / "small", "3m") as disk:
        # WHEN a run that deadlocks keeps the worker's core there
        r = run_cli([*DEADLOCK, "--keep-core", "--report-dir", str(disk / "r")])
        # THEN it reports the deadlock (exit 1), with report.md, and says the core did not fit
        assert r.returncode == 1, r.stdout + r.stderr
        (report,) = disk.glob("r/*/report.md")
        text = report.read_text()
        assert "deadlock" in text
        assert "No core kept (gvlstress): No space left on device" in text
        # AND no uncompressed memory (a .raw file) nor any partial file is left
        assert _left_partial(disk) == []
        assert [p.name for p in report.parent.joinpath("cores").iterdir()] == []
        assert stat.S_IMODE(report.parent.joinpath("cores").stat().st_mode) == 0o700


def test_a_deadlock_found_before_the_disk_filled_is_reported_with_what_could_not_be_written(
    tmp_path: Path,
) -> None:
    # GIVEN a disk with room for a report but not for the wave's captures and run.json
    with _small_disk(tmp_path / "small", "200k") as disk:
        r = run_cli([*DEADLOCK, "--report-dir", str(disk / "r")])
        # THEN exit 1 (the hang is the finding), and report.md says what was not written
        assert r.returncode == 1, r.stdout + r.stderr
        (report,) = disk.glob("r/*/report.md")
        text = report.read_text()
        assert "deadlock" in text
        assert "not written: " in text
        assert "(No space left on device; is the disk full?)" in text
        assert "not written: " in r.stdout + r.stderr
        assert _left_partial(disk) == []
