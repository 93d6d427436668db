"""The tiers tell the truth: a test is `slow` exactly when it starts a process.

Starting a process is what every slow thing here does (a live hang, a wave of workers, the CLI in
a subprocess, py-spy/pystack/eu-stack/gdb, a venv, the docs build); everything else (pure rules,
parsers on recorded output, in-process functions) is the fast tier. So the rule is checked where
it can be seen, while the test runs: an audit hook records `subprocess.Popen`, `os.fork`,
`os.posix_spawn`, `os.system` and `os.exec*`, and `multiprocessing`'s `Process.start` (its
spawn and forkserver methods raise no audit event), during each test's setup, call and teardown
and each fixture's setup (a fixture that started one counts for every test that uses it, cached
or not). Then:

- a test without `slow` that started a process fails, naming what it started and from where;
- a test marked `slow` that passed without starting one fails: take the mark off.

`pypi` tests run only when an `-m` expression names them (`pytest -m pypi`), so `pytest -m slow`
is the slow tier without them.

`--tiers-stop-at-first-process` makes every process start raise instead (nothing is started):
`pytest -m slow --tiers-stop-at-first-process` takes minutes, not the slow tier's half hour,
and what still passes there is pure.
"""

from __future__ import annotations

import multiprocessing.process
import platform
import sys
import traceback
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

STARTS = frozenset(
    {"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.posix_spawnp", "os.system", "os.exec"}
)
"""Audit events that start (or replace) a process; `os.spawn*` and `pty.spawn` go through these."""

HERE = Path(__file__).resolve().parent


class ProcessStarted(BaseException):
    """Raised at a process start under `--tiers-stop-at-first-process` (a BaseException, so a
    test's `except Exception` cannot swallow it)."""


@dataclass
class Recorder:
    """What was started while recording, as one line per start; one frame per fixture being set
    up so a start inside one is charged to it too."""

    stop: bool = False
    starts: list[str] | None = None
    fixtures: list[list[str]] = field(default_factory=list)
    starting_fixtures: set[tuple[str, str]] = field(default_factory=set)

    def saw(self, what: str) -> None:
        if self.starts is None:
            return
        line = f"{what} (from {_where()})"
        self.starts.append(line)
        for frame in self.fixtures:
            frame.append(line)
        if self.stop:
            raise ProcessStarted(line)


RECORDER = Recorder()


def _where() -> str:
    """The innermost frame of a test module that led to the start, else of any file under tests/
    (a helper), else the innermost frame."""
    stack = [f for f in traceback.extract_stack() if f.filename != __file__]
    ours = [f for f in stack if Path(f.filename).resolve().is_relative_to(HERE)]
    tests = [f for f in ours if Path(f.filename).name.startswith("test_")]
    frame = (tests or ours or stack)[-1]
    return f"{Path(frame.filename).name}:{frame.lineno}"


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event in STARTS and RECORDER.starts is not None:
        head = args[0] if args else ""
        RECORDER.saw(f"{event} {str(head)[:120]}")


def _wrap_process_start() -> None:
    start: Callable[[multiprocessing.process.BaseProcess], None] = multiprocessing.process.BaseProcess.start

    def recorded_start(self: multiprocessing.process.BaseProcess) -> None:
        RECORDER.saw(f"multiprocessing {self.name}")
        start(self)

    multiprocessing.process.BaseProcess.start = recorded_start  # type: ignore[method-assign]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tiers-stop-at-first-process",
        action="store_true",
        help="raise at every process start instead of starting it (find slow-marked tests that are pure)",
    )


def pytest_configure(config: pytest.Config) -> None:
    RECORDER.stop = bool(config.getoption("--tiers-stop-at-first-process"))
    # The standard library runs `uname -p` once per process, the first time anything reads
    # platform.platform() (the host profile does): fill that cache now, so which test pays for it
    # does not depend on the order they run in.
    platform.uname().processor  # noqa: B018
    sys.addaudithook(_audit)  # cannot be removed; it records only while a test or fixture runs
    _wrap_process_start()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`pypi` tests (they pip-install pinned packages into venvs of their own) run only when an
    `-m` expression names them, so `pytest -m slow` is the slow tier without them."""
    if "pypi" in (config.getoption("markexpr") or ""):
        return
    drop = [item for item in items if item.get_closest_marker("pypi") is not None]
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = [item for item in items if item.get_closest_marker("pypi") is None]


def _key(fixturedef: pytest.FixtureDef[Any]) -> tuple[str, str]:
    return (fixturedef.baseid, fixturedef.argname)


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(
    fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest
) -> Generator[None, Any, Any]:
    frame: list[str] = []
    RECORDER.fixtures.append(frame)
    try:
        return (yield)
    finally:
        RECORDER.fixtures.remove(frame)
        if frame:
            RECORDER.starting_fixtures.add(_key(fixturedef))


def _starting_fixtures(item: pytest.Item) -> list[str]:
    """The fixtures this test uses that started a process when they were set up."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    return sorted(
        name
        for name, defs in info.name2fixturedefs.items()
        if defs and _key(defs[-1]) in RECORDER.starting_fixtures
    )


def _phase(item: pytest.Item, when: str) -> Generator[None, Any, Any]:
    RECORDER.starts = []
    try:
        result = yield
    finally:
        starts, RECORDER.starts = RECORDER.starts or [], None
    item.stash.setdefault(_STARTED, []).extend(starts)
    if RECORDER.stop:
        return result
    slow = item.get_closest_marker("slow") is not None
    fixtures = _starting_fixtures(item) if when == "setup" else []
    if not slow and (starts or fixtures):
        shown = "\n  ".join(starts or [f"fixture {name} (set up by an earlier test)" for name in fixtures])
        pytest.fail(
            f"a fast-tier test started a process in {when} (mark it slow, or keep it in-process):\n  {shown}",
            pytrace=False,
        )
    if slow and when == "call" and not item.stash[_STARTED] and not _starting_fixtures(item):
        pytest.fail("marked slow but started no process: take the slow mark off", pytrace=False)
    return result


_STARTED = pytest.StashKey[list[str]]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, Any, Any]:
    item.stash[_STARTED] = []
    return (yield from _phase(item, "setup"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    return (yield from _phase(item, "call"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, Any, Any]:
    return (yield from _phase(item, "teardown"))
