"""Start-up stays light: `gvlstress --version` imports nothing but the package's top (no click,
no rich), and `gvlstress --help` lists every command without importing any command's module
(their one-line help is `cli.group.COMMANDS`, checked here against the commands themselves).
Timings are a benchmark's (bench/startup.py), not a test's."""

from __future__ import annotations

import sys
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
