"""Start-up stays light: `gvlstress --version` imports nothing but the package's top (no click,
no rich), and `gvlstress --help` lists every command without importing any command's module
(their one-line help is `cli.group.COMMANDS`, checked here against the commands themselves).
Timings are a benchmark's (bench/startup.py), not a test's."""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Iterator

import click
import pytest

from gvlstress.cli.group import COMMANDS, cli, load_all

LIGHT = ("gvlstress", "click", "rich")


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process's gvlstress, click and rich modules set aside (restored after), so what an
    entry point imports shows in sys.modules as it would in a new process."""
    for name in [n for n in sys.modules if n.split(".")[0] in LIGHT]:
        monkeypatch.delitem(sys.modules, name)
    yield
    for name in [n for n in sys.modules if n.split(".")[0] in LIGHT]:
        sys.modules.pop(name, None)  # the copies made here go; monkeypatch puts the originals back


def loaded() -> set[str]:
    return {n for n in sys.modules if n.split(".")[0] in LIGHT}


def test_version_imports_only_the_package_top(fresh: None, capsys: pytest.CaptureFixture[str]) -> None:
    import gvlstress.cli

    gvlstress.cli.main(["--version"])
    assert capsys.readouterr().out.startswith("gvlstress, version ")
    assert loaded() == {"gvlstress", "gvlstress.cli"}


def test_help_lists_every_command_without_importing_one(
    fresh: None, capsys: pytest.CaptureFixture[str]
) -> None:
    import gvlstress.cli

    with pytest.raises(SystemExit) as done:
        gvlstress.cli.main(["--help"])
    assert done.value.code in (0, None)
    out = capsys.readouterr().out
    assert all(f"  {name}" in out for name in COMMANDS)
    assert not {module for module, _ in COMMANDS.values()} & loaded()


def test_each_commands_one_line_help_is_its_own() -> None:
    load_all()
    assert set(COMMANDS) == {n for n, c in cli.commands.items() if not c.hidden}
    for name, (module, text) in COMMANDS.items():
        command = cli.commands[name]
        assert command.callback is not None
        assert command.callback.__module__ == module
        assert click.Command(name, help=text).get_short_help_str(200) == command.get_short_help_str(200), name


HEAVY = ("gvlstress.api.", "gvlstress.look.pipeline", "gvlstress.judge", "gvlstress.supervisor.watching")
"""What runs a command (the look, the judge, the API's use cases): a command's --help needs none."""


@pytest.mark.parametrize("command", ["inspect", "watch", "run", "hunt", "selftest"])
def test_a_commands_help_imports_nothing_that_runs_it(
    fresh: None, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    import gvlstress.cli

    with pytest.raises(SystemExit) as done:
        gvlstress.cli.main([command, "--help"])
    assert done.value.code in (0, None)
    assert f"Usage: gvlstress {command}" in capsys.readouterr().out
    heavy = sorted(n for n in loaded() if n.startswith(HEAVY))
    assert heavy == [], heavy


def test_the_api_and_model_names_are_each_imported_from_their_module() -> None:
    import gvlstress.api as api
    import gvlstress.model as model

    for package in (api, model):
        assert sorted(package.__all__) == sorted(package._WHERE)
        for module in set(package._WHERE.values()):  # once imported, a submodule named like a
            importlib.import_module(f"{package.__name__}.{module}")  # name it exports shadows it
        for name in package.__all__:
            assert not isinstance(getattr(package, name), types.ModuleType), f"{package.__name__}.{name}"
