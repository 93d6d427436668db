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

from conftest import ROOT, cli_env, run_cli, wait_for
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
    line = re.sub(r"/\S*/(tests/support/|examples/)", r"\1", line)
    line = re.sub(r"/\S*/tmp\.[A-Za-z0-9]{10}\b", "$T", line)  # the tour's T=$(mktemp -d)
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
    assert {*TOUR, "report", "inspect-native"} <= set(found)
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


TOUR = ("run", "inspect", "watch")
"""The README tour's console blocks, in order: one shell session runs their commands verbatim."""
HANG_FOUND = ("gvlstress run ", "gvlstress inspect ", "gvlstress watch ")


def test_the_readme_tour_runs_verbatim_and_ends_clean(tmp_path: Path) -> None:
    shown = blocks()
    steps = [step for name in TOUR for step in conversation(shown[name])]
    # GIVEN the tour's commands as a new user types them, from the checkout, in one shell
    script = "".join(
        f"printf '\\n@@@ %d\\n' {i}\n{cmd}\necho \"@@@ rc $?\"\n" for i, (cmd, _) in enumerate(steps)
    )
    tag = f"gvlstress-tour-{os.getpid()}"
    before = _untracked()
    # WHEN it runs (mktemp -d under this test's directory; a tag in every process it starts)
    done = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, env={**cli_env(), "TMPDIR": str(tmp_path), "GVLSTRESS_TOUR": tag},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=540, check=False,
    )  # fmt: skip
    # THEN every command printed what the README shows, and each hang was found (exit 1)
    parts = re.split(r"^@@@ (\d+)$", done.stdout, flags=re.M)[1:]
    printed = {int(i): text for i, text in zip(parts[::2], parts[1::2], strict=True)}
    assert sorted(printed) == list(range(len(steps))), done.stdout[-3000:]
    for i, (cmd, lines) in enumerate(steps):
        body, _, code = printed[i].rpartition("@@@ rc ")
        assert int(code) == (1 if cmd.startswith(HANG_FOUND) else 0), f"{cmd}: exit {code}\n{body[-3000:]}"
        assert_shown(lines, body, cmd)
    # AND the run's report holds what the README shows of it, with no key the schema page lacks
    (run_dir,) = tmp_path.glob("tmp.*/*-lock-across-par-iter")
    assert_shown(list(shown["report"].lines), (run_dir / "report.md").read_text(), "report.md")
    assert "WorkerOutcome" in undocumented_keys(run_dir)
    # AND it ends clean: nothing it started still runs, nothing was written into the checkout
    wait_for(lambda: not _tagged(tag), 30, "the tour's processes to end")
    assert _untracked() == before


def _tagged(tag: str) -> list[int]:
    """Live processes whose environment carries `tag` (everything the tour started inherits it)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                env = Path(f"/proc/{entry}/environ").read_bytes()
                # bytes: a process's name may be anything (another test's hostile comm)
                state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if f"GVLSTRESS_TOUR={tag}".encode() in env.split(b"\0") and state != b"Z":
                out.append(int(entry))
    return out


def _untracked() -> str:
    """Files git sees as new or changed in the checkout (empty where it is not a git checkout)."""
    done = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    return done.stdout if done.returncode == 0 else ""


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
