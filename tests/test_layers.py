"""The layer contract holds: the pipeline is the folder names, and no import goes back up a layer
(import-linter's contracts in pyproject.toml: layers, pure judging, reporters that only format,
a worker that imports only system/)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import package_docs
from conftest import ROOT


@pytest.mark.slow
def test_the_import_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    r = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "5 kept, 0 broken" in r.stdout


def test_no_module_grows_past_what_one_can_hold_in_ones_head() -> None:
    big = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "src" / "gvlstress").rglob("*.py")
        if (n := len(p.read_text().splitlines())) > 450
    }
    assert big == {}


def test_every_package_docstring_lists_each_of_its_modules() -> None:
    """A reader starts at a package's docstring: every module and subpackage has its line there
    (`python tests/package_docs.py` writes the list from the modules' own docstrings)."""
    missing = [
        f"{pkg.relative_to(package_docs.ROOT.parent)}: `{package_docs.name_of(m)}`"
        for pkg in package_docs.packages()
        for m in package_docs.members(pkg)
        if f"- `{package_docs.name_of(m)}`: " not in package_docs.docstring(pkg / "__init__.py")
    ]
    assert missing == [], "run python tests/package_docs.py: " + ", ".join(missing)
