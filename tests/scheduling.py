"""How CI's slow pass spreads the slow tier over its xdist workers (``-n 3 --dist loadgroup``).

- A test runs on the worker of its ``xdist_group``; a test without one on the worker of its
  file, so a module fixture (one costly run that several tests read) is made once, as with
  ``--dist loadfile``. A file whose tests share nothing gives them groups of their own where it
  would otherwise keep one worker busy for minutes while the others idle (a group name may span
  files: tests that share a session fixture's run name one group).
- Groups are handed out longest first (longest-processing-time first: a long group handed out
  last is a tail the other workers wait through). A group lasts the sum of its tests'
  ``ci_seconds`` marks (about how long a test takes on a loaded CI worker, set where it is far
  from the default), `DEFAULT_S` for a test without one; so unmarked files go in order of their
  number of tests, as xdist's own reorder puts them.

xdist's own loadgroup reads the groups from test ids its workers rewrite, which pytest 9.2's
structured node ids no longer allow (pytest-xdist issue 1386: the groups are silently ignored).
So the groups travel beside the ids: each worker writes its test id -> group map to a directory
the controller made (passed in ``workerinput``) before it sends its collection, and the
controller schedules by that map (`GroupScheduling`), in the order the workers collected.

Without ``--dist loadgroup`` nothing changes.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from xdist.remote import Producer
    from xdist.scheduler import LoadScopeScheduling
    from xdist.workermanage import WorkerController

DEFAULT_S = 5.0
"""About how long a slow test without a ``ci_seconds`` mark takes on a loaded CI worker."""
GROUPS_KEY = "gvlstress_test_groups"
"""The `workerinput` key of the directory the workers write their test id -> group maps to."""
_DIR = pytest.StashKey[Path]()


def seconds(item: pytest.Item) -> float:
    mark = item.get_closest_marker("ci_seconds")
    return float(mark.args[0]) if mark is not None else DEFAULT_S


def group(item: pytest.Item) -> str:
    """Its ``xdist_group`` names (joined as xdist joins them), else its file."""
    names = sorted(
        {
            str(m.args[0] if m.args else m.kwargs.get("name", "default"))
            for m in item.iter_markers("xdist_group")
        }
    )
    return "_".join(names) or item.nodeid.split("::", 1)[0]


def in_order(items: list[pytest.Item]) -> list[pytest.Item]:
    """`items` a group after the other, the longest group first (a group's tests in their order)."""
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        groups.setdefault(group(item), []).append(item)
    ordered = sorted(groups.values(), key=lambda g: -sum(seconds(i) for i in g))
    return [item for g in ordered for item in g]


def _by_group(config: pytest.Config) -> bool:
    """``--dist loadgroup`` (an xdist worker sees it as the option ``loadgroup``, its own ``dist``
    being "no")."""
    return config.getoption("dist", "no") == "loadgroup" or bool(getattr(config.option, "loadgroup", False))


def pytest_configure(config: pytest.Config) -> None:
    if _by_group(config) and not hasattr(config, "workerinput"):
        config.stash[_DIR] = Path(tempfile.mkdtemp(prefix="gvlstress-groups-"))


def pytest_unconfigure(config: pytest.Config) -> None:
    if _DIR in config.stash:
        shutil.rmtree(config.stash[_DIR], ignore_errors=True)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: WorkerController) -> None:
    if _DIR in node.config.stash:
        node.workerinput[GROUPS_KEY] = str(node.config.stash[_DIR])


@pytest.hookimpl(tryfirst=True)  # before xdist's worker sends its collection
def pytest_collection_finish(session: pytest.Session) -> None:
    """On a worker: the groups longest first (the order the controller hands them out in), and
    the map of test id -> group where the controller reads it. -m and -k have deselected by now."""
    workerinput: dict[str, Any] | None = getattr(session.config, "workerinput", None)
    if workerinput is None or GROUPS_KEY not in workerinput:
        return
    session.items[:] = in_order(session.items)
    out = Path(workerinput[GROUPS_KEY]) / f"{workerinput['workerid']}.json"
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps({item.nodeid: group(item) for item in session.items}))
    os.replace(tmp, out)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> LoadScopeScheduling | None:
    if _DIR not in config.stash:
        return None
    return _scheduling(config, log, config.stash[_DIR])


def _scheduling(config: pytest.Config, log: Producer, where: Path) -> LoadScopeScheduling:
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc]  # xdist is untyped
        """xdist's scope scheduling (a scope goes to one worker whole), a scope being the group
        the workers' maps give each test id; scopes in the order the workers collected them."""

        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self.groups is None:  # read once every worker has sent its collection
                self.groups = {}
                for path in sorted(where.glob("*.json")):
                    self.groups.update(json.loads(path.read_text()))
            return self.groups.get(nodeid, nodeid)

    config.option.loadscopereorder = False  # the workers' order is longest first already
    return GroupScheduling(config, log)
