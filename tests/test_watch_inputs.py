"""What `gvlstress watch` refuses before it starts anything: each bad ``--pid``, value or
target option is one line on stderr that says why and the allowed form, and exit 2 (never a
traceback, never 1 "hang found"). Run in this process through the CLI's error funnel: nothing
is started."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import run_cli
from gvlstress.cli.main import main
from gvlstress.errors import UsageError
from gvlstress.scenario import Scenario
from gvlstress.supervisor.jobio import check_pid
from gvlstress.targets.gvl_support import prepare


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """`gvlstress ARGS` in this process: its one line on stderr, once it exited 2."""
    with pytest.raises(SystemExit) as done:
        main(list(args))
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert done.value.code == 2, err
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith("gvlstress: error: ")
    return lines[0]


@pytest.mark.parametrize(
    ("pid", "says"),
    [
        ("2", "a kernel thread"),
        (str(os.getpid()), "that is this watch itself"),
        ("999999999", "no live process"),
        ("0", "no live process"),
    ],
    ids=["kernel-thread", "itself", "gone", "zero"],
)
def test_a_pid_watch_cannot_watch_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, pid: str, says: str
) -> None:
    line = refused(capsys, "watch", "--report-dir", str(tmp_path), "--pid", pid)
    assert says in line


def test_another_users_process_is_refused_to_a_user_who_is_not_root() -> None:
    # GIVEN pid 1, owned by root, named by an ordinary user (uid 1000)
    with pytest.raises(UsageError, match=r"--pid 1: process of user 0, not yours \(uid 1000\)"):
        check_pid(1, uid=1000, euid=1000)
    check_pid(1, uid=1000, euid=0)  # root may watch any


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--stall", "1_0"), "expected a plain number of seconds (like 60 or 2.5) in 1..86400"),
        (("--stall", "1e1"), "expected a plain number of seconds"),
        (("--stall", "inf"), "expected a plain number of seconds"),
        (("--stall", "0.5"), "is not in 1..86400"),
        (("--window", "1_0"), "expected a plain number of seconds (like 60 or 2.5) in 0.5..60"),
        (("--hang-exit-code", "8_6"), "expected a whole number in 1..255"),
        (("--core-limit", "-1"), "--core-limit -1: must be a size from 1M to 1T"),
        (("--core-limit", "99999999T"), "--core-limit 99999999T: must be a size from 1M to 1T"),
        (("--core-limit", "978"), "must be a size from 1M to 1T"),
        (("--on-hang", "keep:"), "--on-hang 'keep:': expected keep, kill or signal:NAME"),
        (("--on-hang", "kill:"), "expected keep, kill or signal:NAME"),
        (("--on-hang", "signal:NOPE"), "no such signal"),
    ],
)
def test_a_value_watch_would_misread_is_refused_with_the_allowed_form(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...], says: str
) -> None:
    line = refused(capsys, "watch", "--report-dir", str(tmp_path), *args, "--", "true")
    assert says in line


def test_a_track_the_built_in_dataset_has_not_is_refused_naming_those_it_has() -> None:
    # GIVEN the built-in (synthetic) genvarloader dataset, whose one track is "signal"
    # WHEN a run asks for a track it has not THEN it is refused before anything is built or started
    with pytest.raises(UsageError, match=r"tracks=nonexistent-track: the built-in dataset has no track") as e:
        prepare(Scenario(target="genvarloader", options={"tracks": "nonexistent-track"}))
    assert "(its tracks: signal)" in e.value.message
    with pytest.raises(UsageError, match="no track 'nope'"):
        prepare(Scenario(target="genvarloader", options={"tracks": "signal,nope"}))


@pytest.mark.slow
def test_run_with_a_track_the_built_in_dataset_has_not_is_exit_2_in_one_line() -> None:
    r = run_cli(["run", "--target", "genvarloader", "-o", "tracks=nonexistent-track"], timeout=120)
    lines = r.stderr.strip().splitlines()
    assert (r.returncode, len(lines)) == (2, 1), r.stderr
    assert "no track 'nonexistent-track' (its tracks: signal)" in lines[0]
