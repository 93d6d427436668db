"""Hypothesis strategies for text from outside at its worst (shared by the property suites):
every Unicode category with lone surrogates and control characters, the markup that would break
a report (backtick fences, ``</details>``, table pipes), sizes up to megabytes, and secrets
planted where a reader must never see them. Derandomized and without a database, so a CI run
draws the same examples every time."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from conftest import SUPPORT, wait_for

SECRET = "hunter2hunter2XYZ"
"""The value planted behind each secret's name; it must appear in no output of any run."""
PLANTED = (f" api_key={SECRET} ", f" ghp_{SECRET}abcdef ", f" https://user:{SECRET}@example.com/x ")
TRICKY = (
    "\x00", "\x07", "\x1b[31m", "\r", "\t", "\n", "\x7f", "\x85", "\udcff", "\ud800", "\ufffe",
    "```", "</details>", "<summary>", "|", "&", "\u2028", "é", "🦀",
)  # fmt: skip

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""What no report, console line or record may hold raw (controls but tab and newline, lone
surrogates, XML's noncharacters)."""

FAST = settings(max_examples=60, deadline=None, derandomize=True, database=None)
"""Pure properties (no process started): many examples, well under a second each."""
REAL = settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
"""Properties that start real processes: a handful of examples each (the suite stays under a
minute on 2 cores), and no shrinking: a failure is reported as drawn, in the time of one run,
instead of minutes of runs spent making it smaller."""

pieces = st.one_of(
    st.text(st.characters(exclude_categories=()), max_size=40),
    st.sampled_from(TRICKY),
)
texts = st.lists(pieces, max_size=12).map("".join)
"""Short text of every category, the tricky characters and markup mixed in."""
_NOT_SURROGATES: tuple[Literal["Cs"]] = ("Cs",)
class_names = st.text(
    st.characters(exclude_categories=_NOT_SURROGATES, exclude_characters="\x00"), max_size=300
)
"""Whatever a class may be named (`type()` refuses NULs and lone surrogates, nothing else)."""


@st.composite
def big_texts(draw: st.DrawFn, most: int = 2_000_000) -> str:
    """A text of any size up to `most` characters (a drawn piece repeated), with a planted
    secret somewhere in it."""
    piece = draw(texts) or "x"
    size = draw(st.sampled_from([0, 1, 80, 4_000, 33_000, 70_000, 300_000, most]))
    body = (piece * (size // len(piece) + 1))[:size]
    at = draw(st.integers(0, len(body)))
    return body[:at] + draw(st.sampled_from(PLANTED)) + body[at:]


def leaked(paths: list[Path], *texts: str) -> list[str]:
    """Where the planted secret shows: files (read as bytes, any encoding) and texts."""
    needle = SECRET.encode()
    out = [str(p) for p in paths if p.is_file() and needle in p.read_bytes()]
    return out + [t[:80] for t in texts if SECRET in t]


def still_open(lines: list[str]) -> tuple[str | None, int]:
    """(the code fence left open, the ``<details>`` sections left open) after `lines` of
    Markdown, read as CommonMark does: inside a fence nothing opens or closes a section."""
    fence: str | None = None
    opened = 0
    for line in lines:
        run = re.match(r" {0,3}(`{3,})", line)
        if fence is None and run:
            fence = run.group(1)
        elif fence is not None and run and set(line.strip()) == {"`"} and len(run.group(1)) >= len(fence):
            fence = None
        elif fence is None:
            opened += line.startswith("<details") - line.startswith("</details>")
    return fence, opened


@contextmanager
def hostile_process(
    base: Path, comm: bytes, threads: list[bytes], where: bytes, argv: list[bytes]
) -> Iterator[int]:
    """The process of support/hostile_process.py, its main thread blocked in read(); killed after."""
    spec = {"comm": comm.hex(), "threads": [t.hex() for t in threads], "dir": where.hex(), "base": str(base)}
    proc = subprocess.Popen(
        [sys.executable, str(SUPPORT / "hostile_process.py"), json.dumps(spec).encode().hex(), *argv],
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"ready"
        wait_for(lambda: _in_read(proc.pid), 30, "the main thread to block in read()")
        yield proc.pid
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)


def _in_read(pid: int) -> bool:
    from gvlstress.probes import procfs

    s = procfs.sample(pid)
    main = next((t for t in s.threads if t.tid == pid), None) if s else None
    return main is not None and main.state == "S" and main.fd_target is not None
