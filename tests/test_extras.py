"""The lean install: the default dependencies are what inspect, watch and run need; scipy and
matplotlib are extras, and a command that needs a missing one refuses in one line (exit 2)."""

from __future__ import annotations

import tomllib

import pytest

from conftest import ROOT
from gvlstress import extras
from gvlstress.errors import ExitCode, UsageError


def project() -> dict[str, object]:
    data: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return data


def test_the_default_install_is_what_inspect_watch_and_run_need() -> None:
    names = {d.split(">")[0].split("=")[0].split("<")[0] for d in project()["dependencies"]}  # type: ignore[attr-defined]
    assert names == {"click", "rich", "psutil", "py-spy", "pystack"}


def test_each_extra_brings_its_module() -> None:
    optional = project()["optional-dependencies"]
    assert isinstance(optional, dict)
    assert optional["stats"] == ["scipy>=1.10"]
    assert optional["plot"] == ["matplotlib>=3.6"]
    assert optional["all"] == ["gvlstress[stats,plot]"]
    assert set(extras.EXTRAS) == {"stats", "plot"}


def test_a_command_whose_extra_is_missing_refuses_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(extras.EXTRAS, "stats", "gvlstress_no_such_module")
    with pytest.raises(UsageError) as err:
        extras.need("stats", "gvlstress sweep")
    assert (
        err.value.message
        == "gvlstress sweep needs gvlstress_no_such_module, which the [stats] extra installs"
    )
    assert err.value.hint == "pip install 'gvlstress[stats]' (or 'gvlstress[all]')"
    assert err.value.exit_code is ExitCode.USAGE
    assert "\n" not in err.value.message


def test_an_installed_extra_lets_the_command_run() -> None:
    extras.need("stats", "gvlstress sweep")  # scipy is a test dependency: no refusal
    assert extras.have("plot")


def test_both_packages_have_one_python_floor_and_the_metadata_an_index_shows() -> None:
    native = tomllib.loads((ROOT / "native" / "pyproject.toml").read_text())["project"]
    ours = project()
    assert native["requires-python"] == ours["requires-python"] == ">=3.11"
    assert ours["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert (ROOT / "CHANGELOG.md").exists()
    classifiers = ours["classifiers"]
    assert isinstance(classifiers, list)
    assert {f"Programming Language :: Python :: 3.{m}" for m in (11, 12, 13)} <= set(classifiers)
    urls = ours["urls"]
    assert isinstance(urls, dict)
    assert {"Homepage", "Source", "Issues", "Changelog"} <= set(urls)
