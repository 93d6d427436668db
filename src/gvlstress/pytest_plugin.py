"""pytest plugin (entry point ``pytest11``): stress runs in a project's CI slow tier.

    def test_loader_does_not_hang(gvlstress):
        result = gvlstress.run(target="mypkg.data:batches", workers=5, rayon=16, waves=3)
        gvlstress.assert_no_hang(result)

Settings follow pytest-timeout's conventions: a command-line option, an environment variable and
an ini key for each, with one precedence rule (command line > environment > ini > default), and
errors that say where a bad value came from.

CI artifacts: with ``--gvlstress-artifacts DIR`` (env ``GVLSTRESS_ARTIFACTS``, ini
``gvlstress_artifacts``) every run's directory (report.md, run.json, junit.xml, the raw captures
and any cores) is copied under DIR/<test>/, the directory a CI job uploads; with
``--gvlstress-keep-core`` (``GVLSTRESS_KEEP_CORE``, ``gvlstress_keep_core``) runs keep a core of
each hung worker (off by default: a core holds the worker's memory and may hold secrets).

A watchdog on every test: with ``--gvlstress-watch SECONDS`` (``GVLSTRESS_WATCH``,
``gvlstress_watch``) a helper process (`gvlstress.api.watch_tests`) watches pytest's process
tree while each test runs, as ``gvlstress watch`` watches a job; a test that makes no progress
for SECONDS is judged with the same look, and a hang's report (report.md, watch.json,
inspect.json) is written at once, its path put in the test's report (a ``gvlstress watch``
section: the failure pytest-timeout raises later carries it) and the terminal summary. The stall
is capped at the larger of (timeout - margin) and half the timeout, so the report comes before
pytest-timeout fires; the watchdog never fails, stops or kills a test itself.

Deadline rule: when pytest-timeout gives the test a timeout, gvlstress must report before it
fires. Each wave's launch timeout is capped so the remaining waves fit in what is left of that
budget minus ``gvlstress_margin`` seconds (capture, kill and reports; default 30 s), and waves
that no longer fit are not started (the result says so in its warnings). A hang is still found
from the stall, in seconds, whatever the budget. Nothing here can wedge pytest: every wait in
the run has a deadline and every worker is killed and reaped before ``run`` returns.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from gvlstress.pytest_watch import TestWatch, stall_for
from gvlstress.system.plugin import PLUGIN_SETTINGS

if TYPE_CHECKING:
    from gvlstress.model import RunResult


@dataclass(frozen=True)
class Settings:
    report_dir: Path
    margin: float
    artifacts: Path | None = None
    keep_core: bool = False
    watch: float = 0.0
    """Seconds without progress before a running test is judged (0: no watchdog)."""


def _flag(text: str) -> bool:
    """true/false, yes/no, on/off, 1/0 (ValueError otherwise)."""
    value = {
        "true": True,
        "yes": True,
        "on": True,
        "1": True,
        "false": False,
        "no": False,
        "off": False,
        "0": False,
    }
    try:
        return value[str(text).strip().lower()]
    except KeyError:
        raise ValueError(text) from None


SETTINGS = pytest.StashKey[Settings]()
_KINDS: dict[str, Any] = {
    "report_dir": str,
    "margin": float,
    "artifacts": str,
    "keep_core": _flag,
    "watch": float,
}
_EXPECTED = {float: "a number", _flag: "true or false"}


ENTRY_POINT = "gvlstress"
"""This plugin's name under ``[project.entry-points.pytest11]``."""


def pytest_plugin_registered(plugin: object, plugin_name: str, manager: pytest.PytestPluginManager) -> None:
    """``pytest -p gvlstress.pytest_plugin`` registers this module under its module name before
    the entry points are loaded; the entry point would then register it again, under
    `ENTRY_POINT`, which pluggy refuses ("Plugin already registered"). Loaded once either way:
    the entry point's name is blocked, so the entry point is skipped."""
    if plugin is sys.modules[__name__] and plugin_name != ENTRY_POINT and not manager.has_plugin(ENTRY_POINT):
        manager.set_blocked(ENTRY_POINT)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gvlstress", "gvlstress stress runs")
    for s in PLUGIN_SETTINGS:
        group.addoption(
            s.option,
            dest=f"gvlstress_{s.name}",
            default=None,
            metavar=s.metavar,
            help=f"{s.what[0].upper()}{s.what[1:]} (env {s.env}, ini {s.ini}; default: {s.shown_default}).",
        )
        parser.addini(s.ini, s.what[0].upper() + s.what[1:] + ".", default=None)


def _setting(config: pytest.Config, name: str) -> Any:
    setting = next(s for s in PLUGIN_SETTINGS if s.name == name)
    flag, env, default, kind = setting.option, setting.env, setting.default, _KINDS[name]
    for source, value in (
        (flag, config.getoption(f"gvlstress_{name}")),
        (f"environment variable {env}", os.environ.get(env)),
        (f"ini option gvlstress_{name}", config.getini(f"gvlstress_{name}")),
        ("default", default),
    ):
        if value not in (None, ""):
            try:
                parsed = kind(value)
            except ValueError:
                expected = _EXPECTED.get(kind, "a value")
                raise pytest.UsageError(f"gvlstress: {source}: expected {expected}, got {value!r}") from None
            if kind is float and parsed < 0:
                raise pytest.UsageError(f"gvlstress: {source}: must be >= 0, got {value!r}")
            if name == "watch" and 0 < parsed < 1:
                raise pytest.UsageError(f"gvlstress: {source}: 0 (off) or at least 1 second, got {value!r}")
            return parsed
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "gvlstress: a gvlstress stress run (a slow-tier test)")
    artifacts = _setting(config, "artifacts")
    config.stash[SETTINGS] = Settings(
        report_dir=Path(_setting(config, "report_dir")),
        margin=_setting(config, "margin"),
        artifacts=Path(artifacts) if artifacts else None,
        keep_core=_setting(config, "keep_core"),
        watch=_setting(config, "watch"),
    )
    config.stash[WATCH] = None


def pytest_unconfigure(config: pytest.Config) -> None:
    watch = config.stash.get(WATCH, None)
    if watch is not None:
        watch.close()


def _timeout_of(item: pytest.Item) -> float | None:
    """The pytest-timeout timeout that applies to `item`, if pytest-timeout is active."""
    marker = item.get_closest_marker("timeout")
    if marker is not None:
        value = marker.args[0] if marker.args else marker.kwargs.get("timeout")
    else:
        try:
            value = item.config.getoption("timeout")
        except ValueError:
            return None
        if value is None:
            try:
                value = item.config.getini("timeout")
            except ValueError:
                value = None
    try:
        seconds = float(value) if value not in (None, "") else 0.0
    except (TypeError, ValueError):
        return None
    return seconds if seconds > 0 else None


def hang_message(result: RunResult) -> str | None:
    """The one-paragraph failure message for a run with a hang, crash or error (else None)."""
    from gvlstress.model import plural
    from gvlstress.system.text import clip, one_line

    s = result.summary
    if not (s.hung or s.crashed or s.errored):
        return None
    bad = [w for wave in result.waves for w in wave.workers if w.verdict is s.verdict]
    first = bad[0] if bad else None
    line = clip(one_line(first.verdict_line), 1000) if first else ""  # the whole is in report.md
    hint = f"\n  hint: {first.diagnosis.hint}" if first and first.diagnosis and first.diagnosis.hint else ""
    return (
        f"gvlstress: {s.verdict.value} in {max(s.hung, s.crashed, s.errored)} of {plural(s.waves, 'wave')} "
        f"of {result.scenario.name}: {line}{hint}\n"
        f"  report: {result.run_dir}/report.md"
    )


class Runner:
    """The `gvlstress` fixture: run a scenario within the test's budget; assert on the result."""

    def __init__(self, item: pytest.Item, settings: Settings) -> None:
        self.item = item
        self.settings = settings
        self.started = time.monotonic()
        timeout = _timeout_of(item)
        self.deadline = self.started + timeout if timeout else None
        self.artifacts: list[Path] = []
        """Where this test's runs were copied (``--gvlstress-artifacts``)."""

    def run(self, scenario: str | None = None, **overrides: Any) -> RunResult:
        """Run `scenario` (name or path; None: defaults) with `overrides` (Scenario fields)."""
        from gvlstress import api
        from gvlstress.scenario_sources import resolve

        overrides.setdefault("report_dir", str(self.settings.report_dir))
        if self.settings.keep_core:
            overrides.setdefault("keep_core", True)
        sc = resolve(scenario, overrides, {k: f"gvlstress.run({k}=...)" for k in overrides})
        deadline = self.deadline - self.settings.margin if self.deadline is not None else None
        result = api.run(sc, command=("pytest", self.item.nodeid), deadline=deadline)
        if self.settings.artifacts is not None:
            self.artifacts.append(
                api.export(Path(result.path or result.run_dir), self.settings.artifacts, self.item.nodeid)
            )
        return result

    def assert_no_hang(self, result: RunResult) -> None:
        """Fail with the verdict line, the named pattern and the report's path on any hang,
        crash or error."""
        message = hang_message(result)
        if message is not None:
            copied = "".join(f"\n  artifacts: {p}" for p in self.artifacts)
            pytest.fail(message + copied, pytrace=False)


@pytest.fixture
def gvlstress(request: pytest.FixtureRequest) -> Runner:
    """Run gvlstress scenarios from a test; see `Runner.run` and `Runner.assert_no_hang`."""
    return Runner(request.node, request.config.stash[SETTINGS])


# -- the watchdog on every test (--gvlstress-watch) ----------------------------------------------

WATCH = pytest.StashKey[TestWatch | None]()


def _watch_of(config: pytest.Config) -> TestWatch | None:
    """The session's watchdog, started with the first test it watches (never in an xdist
    controller, which runs no test)."""
    settings = config.stash[SETTINGS]
    if not settings.watch:
        return None
    watch = config.stash.get(WATCH, None)
    if watch is None:
        watch = config.stash[WATCH] = TestWatch(config, settings.report_dir)
    return watch if watch.proc is not None else None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    watch = _watch_of(item.config)
    if watch is None:
        return (yield)
    settings = item.config.stash[SETTINGS]
    watch.begin(item.nodeid, stall_for(settings.watch, _timeout_of(item), settings.margin))
    try:
        return (yield)
    finally:
        watch.end(item.nodeid)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    watch = item.config.stash.get(WATCH, None)
    if watch is not None and (text := watch.section(item.nodeid)) is not None:
        report.sections.append(("gvlstress watch", text))
    return report


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    watch = config.stash.get(WATCH, None)
    if watch is None or not (watch.found or watch.problems):
        return
    terminalreporter.section("gvlstress watch")
    for text in watch.found.values():
        terminalreporter.line(text)
    for problem in watch.problems:
        terminalreporter.line(f"gvlstress watch: {problem}")
