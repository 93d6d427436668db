"""A rule added once, in one place (`judge.across.RULES`), to show it reaches ``run`` at the stall
and ``inspect`` alike (`tests/test_agreement.py`): it names any process whose waiting thread is
called ``gvls-newrule`` (a name a test program gives its thread with prctl)."""

from __future__ import annotations

import sys
from dataclasses import replace

from gvlstress.judge import across
from gvlstress.judge.case import Case, Found
from gvlstress.judge.names import Match
from gvlstress.model import ProbeKind
from gvlstress.model.evidence import notes

NAME = "a rule added once"


def marked(case: Case) -> Found | None:
    f = case.finding
    if not any(t.comm == "gvls-newrule" for t in f.threads):
        return None
    return replace(f, kind=ProbeKind.DEADLOCK, reason="the test's rule named it"), Match(
        NAME, "none", notes("seen")
    )


if __name__ == "__main__":
    across.RULES.insert(0, marked)
    from gvlstress.cli import main

    main(sys.argv[1:])
