"""CI's slow pass by xdist group (tests/scheduling.py): a test goes with its `xdist_group`, else
with its file; the groups longest first; and a real `-n 2 --dist loadgroup` run keeps each group
on one worker (xdist's own loadgroup silently stopped doing so under pytest 9.2)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import scheduling

TESTS = Path(__file__).resolve().parent

SOURCE = """
import pytest

def test_plain():
    pass

@pytest.mark.xdist_group("shared")
def test_shared():
    pass

@pytest.mark.ci_seconds(60)
def test_long():
    pass

@pytest.mark.xdist_group("long-alone")
@pytest.mark.ci_seconds(90)
def test_longest():
    pass
"""


def test_a_test_goes_with_its_group_else_with_its_file_and_the_longest_groups_go_first(
    pytester: pytest.Pytester,
) -> None:
    items = pytester.getitems(SOURCE)
    file = items[0].nodeid.split("::")[0]
    assert [scheduling.group(i) for i in items] == [file, "shared", file, "long-alone"]
    assert [scheduling.seconds(i) for i in items] == [5.0, 5.0, 60.0, 90.0]
    # the file's group lasts 5 + 60 s, the longest test's 90 s, the shared one 5 s
    assert [i.name for i in scheduling.in_order(items)] == [
        "test_longest",
        "test_plain",
        "test_long",
        "test_shared",
    ]


WHERE = """
import json, os, pathlib
import pytest

def where(name):
    out = pathlib.Path(os.environ["WHERE_DIR"]) / f"{name}.json"
    out.write_text(json.dumps(os.environ.get("PYTEST_XDIST_WORKER")))

@pytest.mark.xdist_group("g")
@pytest.mark.parametrize("i", range(4))
def test_grouped(i):
    where(f"{NAME}-grouped-{i}")

@pytest.mark.parametrize("i", range(4))
def test_plain(i):
    where(f"{NAME}-plain-{i}")
"""


@pytest.mark.slow
def test_a_real_run_keeps_each_group_and_each_ungrouped_file_on_one_worker(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # GIVEN two files, each with four tests of group "g" and four without a group
    for name in ("a", "b"):
        pytester.makepyfile(**{f"test_{name}": f"NAME = {name!r}\n" + WHERE})
    pytester.makeconftest('pytest_plugins = ["scheduling"]\n')
    pytester.makeini("[pytest]\nmarkers =\n    ci_seconds(n): how long\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("WHERE_DIR", str(tmp_path))
    # WHEN they run on two workers by group
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup", timeout=120
    )
    result.assert_outcomes(passed=16)
    ran = {p.stem: json.loads(p.read_text()) for p in tmp_path.glob("*.json")}
    # THEN the eight tests of "g" ran on one worker, and each file's other four on one worker
    assert len(ran) == 16
    assert len({w for k, w in ran.items() if "-grouped-" in k}) == 1, ran
    for name in ("a", "b"):
        assert len({w for k, w in ran.items() if k.startswith(f"{name}-plain-")}) == 1, ran
    # AND both workers had work (the groups were spread, not all sent to one)
    assert len(set(ran.values())) == 2, ran
