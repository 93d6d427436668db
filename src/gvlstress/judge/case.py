"""One process as every rule across a look sees it: one frozen input (`Case`), one shape for a
rule (`Rule`: a case in, a new finding and its name out, or None). A new rule is a function of
this shape in its own module and one line in `judge.across.RULES`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from gvlstress.judge.names import Match
from gvlstress.model import Capture, ProbeFinding
from gvlstress.model.wiring import Relatives, Wiring


@dataclass(frozen=True)
class Others:
    """What a rule may know of the other processes of the look: their findings and the names
    judged for them so far (a deadlock's own stacks' shape where no rule named it yet)."""

    findings: Mapping[int, ProbeFinding] = field(default_factory=dict)
    names: Mapping[int, Match | None] = field(default_factory=dict)
    captures: Mapping[int, Capture] = field(default_factory=dict)


@dataclass(frozen=True)
class Case:
    """The process a rule judges, with everything a rule may read."""

    finding: ProbeFinding
    capture: Capture | None = None
    origin: Capture | None = None
    """The capture of the parent it was forked from (a fork's missing threads are there)."""
    wiring: Wiring = field(default_factory=Wiring)
    others: Others = field(default_factory=Others)
    relatives: Relatives = field(default_factory=Relatives)


Found = tuple[ProbeFinding, Match | None]
"""A rule's answer: the process's new finding and the pattern that names it (None: a verdict no
pattern names, e.g. a wait on a stopped peer)."""
Rule = Callable[[Case], Found | None]
"""A rule for a process its own stacks leave unnamed: None when it has nothing to say."""
