"""Cores are secrets on disk, and a disk fills (issue 37). A kept core is a worker's memory: 0600
in a 0700 folder. A core that does not fit leaves nothing partial behind (no uncompressed
``.raw`` memory), and a deadlock found before the disk filled is still reported: exit 1, and
report.md says what could not be written.

The full disk of a core is a small tmpfs mounted (and removed) here, so root only; a disk that
fills after a wave is a file-size limit (RLIMIT_FSIZE) on the harness.
"""

from __future__ import annotations

import contextlib
import resource
import signal
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import GVL, ROOT, cli_env, cli_run, run_cli, workers_of

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


def _limited(limit: int) -> Callable[[], None]:
    """A child's file-size limit (RLIMIT_FSIZE): a write past `limit` bytes fails (EFBIG, with
    SIGXFSZ ignored), as a disk that filled would fail it, whatever the files' sizes are here."""

    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_deadlock_found_before_the_disk_filled_is_reported_with_what_could_not_be_written(
    tmp_path: Path,
) -> None:
    # GIVEN the sizes of this deadlock's files here: report.md, and the largest (a capture)
    cli_run(DEADLOCK, 1, tmp_path / "sized")
    run_dir = next((tmp_path / "sized").glob("*/run.json")).parent
    report = (run_dir / "report.md").stat().st_size
    largest = max(p.stat().st_size for p in run_dir.rglob("*") if p.is_file())
    if largest < report + 4096:
        pytest.skip(f"no file here is larger than report.md ({largest} vs {report} bytes)")
    # WHEN the same run may write no file larger than their middle (the wave's captures fail)
    r = subprocess.run(
        [*GVL, *DEADLOCK, "--report-dir", str(tmp_path / "r")],
        capture_output=True,
        text=True,
        timeout=240,
        env=cli_env(),
        cwd=ROOT,
        preexec_fn=_limited((report + largest) // 2),
        check=False,
    )
    # THEN exit 1 (the hang is the finding), and report.md says what was not written
    assert r.returncode == 1, r.stdout + r.stderr
    (written,) = (tmp_path / "r").glob("*/report.md")
    text = written.read_text()
    assert "deadlock" in text
    assert "not written: wave 1's stacks and captures (File too large; is the disk full?)" in text
    assert "not written: wave 1's stacks and captures" in r.stdout + r.stderr
    assert _left_partial(tmp_path / "r") == []
