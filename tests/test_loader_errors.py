"""Whatever a loader throws, the harness reports it: real workers (``gvlstress run --target
mod:callable``) raise generated exceptions (classes whose ``__str__``, ``__repr__`` or
``__reduce__`` fail, messages of every Unicode category with surrogates and control characters,
up to megabytes, secrets planted in them) at import, in open, in the first or a later batch, or
in the target's prepare, while flooding stderr. Each run ends with its documented exit code
(3 when a worker raised, 0 when nothing failed, 2 when the supervisor's own import or prepare
did: one line), never 70; report.md and run.json are written, bounded and valid, and nothing
planted leaks. Exit 70 stays for gvlstress's own bugs."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from gvlstress import store
from gvlstress.reporters import json_report
from gvlstress.reporters.markdown import REPORT_LIMIT
from hostile import REAL, UNSAFE, big_texts, class_names, leaked, still_open, texts

pytestmark = pytest.mark.slow

WORKER_SIDE = ("import", "open", "first batch", "later batch")
SUPERVISOR_SIDE = ("prepare", "import in the supervisor")


@dataclass(frozen=True)
class Loader:
    """A generated target module: an exception class, where it is raised, what it floods."""

    name: str
    base: str
    shows: str
    """What its ``__str__`` does: 'message', 'raises', 'not a str', 'a str subclass'."""
    repr_raises: bool
    message: str
    where: str
    flood: int
    line: str

    def source(self) -> str:
        body = {
            "message": "return MESSAGE",
            "raises": "raise ValueError(MESSAGE[:50])",
            "not a str": "return 42",
            "a str subclass": "return Sneaky(MESSAGE)",
        }[self.shows]
        return "\n".join(
            [
                "import multiprocessing, sys",
                f"MESSAGE = {self.message!r}",
                f"LINE = {self.line!r}",
                "class Sneaky(str):",
                "    def __len__(self):",
                "        raise RuntimeError('len')",
                "def _str(self):",
                f"    {body}",
                "def _repr(self):",
                "    raise KeyError('repr')" if self.repr_raises else "    return 'E(...)'",
                "def _reduce(self):",
                "    raise TypeError('no pickling')",
                f"E = type({self.name!r}, ({self.base},), "
                "{'__str__': _str, '__repr__': _repr, '__reduce__': _reduce})",
                "def fail():",
                f"    for _ in range({self.flood}):",
                "        print(LINE, file=sys.stderr)",
                "    if " + repr(self.where != "nowhere") + ":",
                "        raise E(MESSAGE)",
                "if " + repr(self.where == "import in the supervisor") + ":",
                "    fail()",
                "if " + repr(self.where == "import") + " and multiprocessing.parent_process() is not None:",
                "    fail()",
                "def opens():",
                "    fail()",
                "    return [1]",
                "def first():",
                "    fail()",
                "    yield 1",
                "def later():",
                "    yield 1",
                "    yield 2",
                "    fail()",
                "class Prepared:",
                "    name = 'prepared'",
                "    def prepare(self, scenario, workdir):",
                "        fail()",
            ]
        )

    @property
    def attr(self) -> str:
        return {"open": "opens", "first batch": "first", "prepare": "Prepared", "nowhere": "first"}.get(
            self.where, "later"
        )

    @property
    def exit_code(self) -> int:
        return 2 if self.where in SUPERVISOR_SIDE else 0 if self.where == "nowhere" else 3


@st.composite
def loaders(draw: st.DrawFn, where: str) -> Loader:
    flood = 0 if where in SUPERVISOR_SIDE else draw(st.sampled_from([0, 50, 20_000]))
    return Loader(
        name=draw(class_names),
        base=draw(
            st.sampled_from(
                ["Exception", "RuntimeError", "OSError", "BaseException", "SystemExit", "KeyboardInterrupt"]
            )
        ),
        shows=draw(st.sampled_from(["message", "raises", "not a str", "a str subclass"])),
        repr_raises=draw(st.booleans()),
        message=draw(big_texts()),
        where=where,
        flood=flood,
        line=draw(texts) + " token=" + "hunter2hunter2XYZ",
    )


def _run(tmp: Path, loader: Loader, *extra: str) -> tuple[subprocess.CompletedProcess[str], Path | None]:
    (tmp / "loader_under_test.py").write_text(loader.source(), errors="surrogatepass")
    reports = tmp / "r"
    r = run_cli(
        ["run", "--target", f"loader_under_test:{loader.attr}", "--workers", "1", "--waves", "1",
         "--report-dir", str(reports), *extra],
        cwd=tmp,
        timeout=180,
    )  # fmt: skip
    dirs = sorted(reports.glob("*/run.json"))
    return r, dirs[0].parent if dirs else None


def check_reports(run_dir: Path) -> None:
    """report.md bounded, printable and valid UTF-8; junit.xml parses; run.json round-trips."""
    report = (run_dir / "report.md").read_bytes().decode("utf-8")
    assert len(report) <= REPORT_LIMIT
    assert UNSAFE.search(report) is None
    assert still_open(report.split("\n")) == (None, 0)
    ET.fromstring((run_dir / "junit.xml").read_bytes())
    result = store.read(run_dir)
    again = run_dir.parent / "again"
    again.mkdir()
    json_report.write(result, again)
    assert store.read(again) == result
    for error in run_dir.glob("workers/*/error.txt"):
        text = error.read_bytes().decode("utf-8")
        assert len(text) <= 64 * 1024 + 1
        assert UNSAFE.search(text) is None


def check_console(r: subprocess.CompletedProcess[str]) -> None:
    """One printable line per worker, cut to the (160-column) pipe width."""
    assert UNSAFE.search(r.stdout + r.stderr) is None
    for line in r.stdout.splitlines():
        if line.startswith("  slot "):
            assert len(line) <= 160, line


@pytest.mark.parametrize("where", [*WORKER_SIDE, *SUPERVISOR_SIDE, "nowhere"])
@settings(REAL, max_examples=2)
@given(data=st.data())
def test_whatever_a_loader_raises_the_run_reports_it(
    tmp_path_factory: pytest.TempPathFactory, where: str, data: st.DataObject
) -> None:
    # GIVEN a loader that raises a generated exception there (or only floods stderr)
    loader = data.draw(loaders(where))
    tmp = tmp_path_factory.mktemp("loader")
    # WHEN gvlstress runs it in a real worker
    r, run_dir = _run(tmp, loader)
    # THEN its documented exit code, never 70; the reports are written and nothing leaks
    assert r.returncode == loader.exit_code, (loader.where, r.stdout[-2000:], r.stderr[-2000:])
    check_console(r)
    if loader.exit_code == 2:  # the supervisor's own import or prepare: one line, no run
        (line,) = r.stderr.strip().splitlines()
        assert line.startswith("gvlstress: error: "), line
    else:
        assert run_dir is not None
        check_reports(run_dir)
        stored = json.loads((run_dir / "run.json").read_text())
        (w,) = stored["waves"][0]["workers"]
        assert w["verdict"] == ("ok" if loader.exit_code == 0 else "error")
    assert leaked([*(tmp / "r").rglob("*")], r.stdout, r.stderr) == []


TABLE = {
    "failing_str": "class Bad(Exception):\n    def __str__(self):\n        raise ValueError('no')\n"
    "def batches():\n    raise Bad()\n    yield 1\n",
    "surrogate": "def batches():\n    raise RuntimeError('bad \\udcff byte')\n    yield 1\n",
    "long_32000": "def batches():\n    raise RuntimeError('x' * 32000)\n    yield 1\n",
    "long_40000": "def batches():\n    raise RuntimeError('x' * 40000)\n    yield 1\n",
    "unpicklable": "import threading\nclass E(Exception):\n    def __init__(self):\n"
    "        super().__init__('no pickle')\n        self.lock = threading.Lock()\n"
    "def batches():\n    raise E()\n    yield 1\n",
    "exits": "import os\ndef batches():\n    os._exit(0)\n    yield 1\n",
    "floods": "import sys\ndef batches():\n    for i in range(200000):\n"
    "        print(f'line {i}', file=sys.stderr)\n    yield 1\n",
}


@pytest.mark.parametrize(
    ("module", "code", "says"),
    [
        ("failing_str", 3, "failing_str.Bad: <str() raised ValueError; repr: Bad()>"),
        ("surrogate", 3, "RuntimeError: bad \\udcff byte"),
        ("long_32000", 3, "RuntimeError: xxxx"),
        ("long_40000", 3, "RuntimeError: xxxx"),
        ("unpicklable", 3, "unpicklable.E: no pickle"),
        ("exits", 3, "crash"),
        ("floods", 0, ""),
    ],
)
def test_the_issues_table_is_exit_3_with_a_report(tmp_path: Path, module: str, code: int, says: str) -> None:
    # GIVEN each loader of the issue's table, raising once in its first batch
    (tmp_path / f"{module}.py").write_text(TABLE[module])
    # WHEN it runs in one worker, one wave
    r = run_cli(["run", "--target", f"{module}:batches", "--workers", "1", "--waves", "1",
                 "--report-dir", str(tmp_path / "r")], cwd=tmp_path, timeout=180)  # fmt: skip
    # THEN the documented exit code with a report, one console line per worker cut to the pipe
    assert r.returncode == code, r.stdout[-3000:] + r.stderr[-3000:]
    (run_dir,) = [p.parent for p in (tmp_path / "r").glob("*/run.json")]
    check_reports(run_dir)
    check_console(r)
    if code == 3 and module != "exits":
        (line,) = [x for x in r.stdout.splitlines() if x.startswith("  slot ")]
        assert says[:28] in line, line  # the start of what it said, cut to the pipe's width
        (error,) = run_dir.glob("workers/*/error.txt")
        assert f"whole: {error.relative_to(run_dir)}" in line or f"whole: {error}" in line
        assert says.replace("xxxx", "x" * 32000) in error.read_text()  # kept whole (<= 64 KiB)
        assert (says.split(": ", 1)[1] or "x") in (run_dir / "report.md").read_text().replace("&lt;", "<")


def test_a_bug_in_gvlstress_is_still_exit_70_however_hostile_its_exception(tmp_path: Path) -> None:
    # GIVEN a real bug planted in a reporter, raising an exception that cannot even be shown
    code = (
        "import gvlstress.reporters.markdown as md, gvlstress.cli as cli\n"
        "class Hostile(Exception):\n"
        "    def __str__(self):\n        raise ValueError('cannot show')\n"
        "def broken(*a, **k):\n    raise Hostile()\n"
        f"md.render_files = broken\ncli.main(['run', '--workers', '1', '--waves', '1', "
        f"'--iterations', '2', '--report-dir', {str(tmp_path)!r}])\n"
    )
    # WHEN a run reaches it
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, check=False)
    # THEN the funnel says "a bug in gvlstress" in one line, exit 70, the traceback in a file
    assert r.returncode == 70, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: internal error: Hostile: <str() raised ValueError"), line
    path = Path(line.split("traceback in ")[1].split(";")[0])
    saved = path.read_text()
    path.unlink()
    assert "in broken" in saved
