"""The site builds strictly without network, and the README's tour (and the other blocks of real
output the pages show) runs as shown: every line shown is a line the command prints today, once
pids, addresses, times and paths are set aside. Trimming is allowed (`...`), inventing is not."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from conftest import ROOT, SUPPORT, cli_env, run_cli, wait_for
from docpages import Block, pages, split
from test_docs import undocumented_keys

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def test_the_site_builds_strictly_and_offline(tmp_path: Path) -> None:
    # GIVEN no network where this machine can cut it off (CI runs as root: it can)
    offline = ["unshare", "--net"] if _can_unshare() else []
    # WHEN the site is built as CI builds it: every warning an error
    started = time.monotonic()
    done = subprocess.run(
        [*offline, sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "docs", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    # THEN it builds, every page and every generated section in it
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert time.monotonic() - started < 240
    for page in pages()[1:]:
        assert (tmp_path / page.relative_to(ROOT / "docs")).with_suffix(".html").is_file(), page
    cli = (tmp_path / "reference" / "cli.html").read_text()
    assert all(f'id="gvlstress-{name}"' in cli for name in ("run", "inspect", "hunt", "slurm"))
    assert (
        "a wait no thread or process left can end" in (tmp_path / "reference" / "patterns.html").read_text()
    )


def _can_unshare() -> bool:
    return (
        shutil.which("unshare") is not None
        and subprocess.run(["unshare", "--net", "true"], check=False).returncode == 0
    )


def normal(line: str) -> str:
    """A line with what changes from run to run set aside: pids, addresses, times, paths."""
    line = re.sub(r"\d{8}T\d{6}Z", "STAMP", line)
    line = re.sub(r"0x[0-9a-f]+", "0xH", line)
    line = re.sub(r"/\S*/(tests/support/)", r"\1", line)
    return re.sub(r"\d+(\.\d+)?", "N", line).rstrip()


def assert_shown(shown: list[str], printed: str, what: str) -> None:
    """Every shown line (but `...` and blank ones) is a printed line, in the same order; a shown
    line cut with `…` matches a printed line that starts the same way."""
    lines = [normal(x) for x in printed.splitlines()]
    at = 0
    for line in shown:
        if line.strip() in ("", "..."):
            continue
        want = normal(line)
        cut = want.endswith("…")
        stem = want[:-1][:-8] if cut else want
        for i in range(at, len(lines)):
            if lines[i].startswith(stem) if cut else lines[i] == want:
                at = i + 1
                break
        else:
            pytest.fail(
                f"{what}: shown but not printed (in this order): {line!r}\n--- printed:\n{printed[-6000:]}"
            )


def blocks() -> dict[str, Block]:
    found = {b.output: b for p in pages() for b in split(p.read_text())[0] if b.output}
    assert {"run", "report", "inspect", "inspect-native"} <= set(found)
    return found


def conversation(block: Block) -> list[tuple[str, list[str]]]:
    """A console block as (command, the lines shown after it)."""
    out: list[tuple[str, list[str]]] = []
    for line in block.lines:
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            out[-1][1].append(line)
    return out


def test_the_readme_tour_runs_as_shown(tmp_path: Path) -> None:
    shown = blocks()
    # GIVEN the tour's run, as a new user types it
    [(command, printed_lines)] = conversation(shown["run"])
    assert command == "gvlstress run --scenario lock-across-par-iter"
    # WHEN it runs (in a directory of its own, where its reports/ goes)
    done = run_cli(command.split()[1:], timeout=300, cwd=tmp_path)
    # THEN it hangs, is caught and says what the README shows
    assert done.returncode == 1, done.stdout + done.stderr
    assert_shown(printed_lines, done.stdout, "the run")
    # AND the report it wrote holds what the README shows of it
    (run_dir,) = (tmp_path / "reports").iterdir()
    assert_shown(list(shown["report"].lines), (run_dir / "report.md").read_text(), "report.md")
    # AND the run.json it wrote holds no key the schema page lacks
    assert "WorkerOutcome" in undocumented_keys(run_dir)


@contextmanager
def hung(argv: list[str], ready: str) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """A program that hangs, started in its own session; yields once it printed a line
    starting with `ready`; killed with its whole group at the end."""
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )  # fmt: skip
    lines: list[str] = []
    try:
        stream: IO[str] = proc.stdout  # type: ignore[assignment]
        wait_for(lambda: _read_until(stream, lines, ready), 60, f"{argv[-1]} to print {ready!r}", every=0)
        yield proc, lines
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def _read_until(stream: IO[str], lines: list[str], ready: str) -> bool:
    line = stream.readline()
    if not line:
        raise AssertionError(f"exited before {ready!r}: {lines}")
    lines.append(line.rstrip("\n"))
    return line.startswith(ready)


def test_the_readme_inspect_of_a_wedged_launcher_runs_as_shown(tmp_path: Path) -> None:
    (start, program_lines), (command, printed_lines) = conversation(blocks()["inspect"])
    assert start == "python tests/support/corpus/pool_wedged.py &"
    assert command == "gvlstress inspect $! --tree"
    # GIVEN the launcher, wedged (it prints `ready` once its dead worker stayed unreaped)
    with hung([sys.executable, str(SUPPORT / "corpus" / "pool_wedged.py")], "ready") as (proc, lines):
        assert_shown(program_lines, "\n".join(lines), "the launcher")
        # WHEN it is inspected as the README shows
        done = run_cli(["inspect", str(proc.pid), "--tree"], timeout=120, cwd=tmp_path)
    # THEN it is a deadlock, said as the README says it
    assert done.returncode == 1, done.stdout + done.stderr
    assert_shown(printed_lines, done.stdout, "inspect --tree")


def test_the_inspect_page_example_runs_as_shown(tmp_path: Path) -> None:
    [(command, printed_lines)] = conversation(blocks()["inspect-native"])
    assert re.fullmatch(r"gvlstress inspect \d+", command)
    # GIVEN the built-in loader hung with a lock across its parallel region (the page's recipe)
    argv = [sys.executable, "-m", "gvlstress_native", "--fault", "lock_across_par_iter", "--rayon", "16"]
    with hung(argv, "pid ") as (proc, _):
        wait_for(lambda: _all_parked(proc.pid, 17), 60, "17 threads parked on futexes")
        done = run_cli(["inspect", str(proc.pid)], timeout=120, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert_shown(printed_lines, done.stdout, "inspect")


def _all_parked(pid: int, threads: int) -> bool:
    """Every thread of `pid` asleep in a futex wait (x86_64: 202, aarch64: 98), `threads` of them."""
    futex = {"x86_64": "202", "aarch64": "98"}.get(os.uname().machine, "202")
    try:
        tids = os.listdir(f"/proc/{pid}/task")
        calls = [Path(f"/proc/{pid}/task/{t}/syscall").read_text().split()[:1] for t in tids]
    except OSError:
        return False
    return len(tids) >= threads and all(c == [futex] for c in calls)
