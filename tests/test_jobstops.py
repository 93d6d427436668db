"""`judge.jobstops`: a wait for a child that job control stopped and nothing will continue, on
recorded worlds (the live shape is tests/support/corpus/stopped_by_terminal.py, in the agreement
table). Each row changes one fact of the hang; only the hang itself is named."""

from __future__ import annotations

import pytest

from gvlstress.judge import names
from gvlstress.model import ProbeKind
from gvlstress.model import evidence as ev
from gvlstress.model.waitfor import End
from lookshapes import SLEEP, Proc, Th, World

SHELL, TOOL, OTHER, EMULATOR = 300, 301, 302, 299
TTY = "/dev/pts/4"
TCSETS = "16 0x0 0x5402 0x7ffc5ab24800 0x0 0x0 0x0 0x7f0 0x7f1"
"""The tool's tcsetattr(): ioctl(0, TCSETS, ...), where SIGTTOU stopped it."""


def wait4(pid: int, options: int = 0) -> str:
    return f"61 0x{pid & 0xFFFFFFFF:x} 0x7ffd00001000 0x{options:x} 0x0 0x0 0x0 0x7f0 0x7f1"


def waitid(idtype: int, pid: int, options: int) -> str:
    return f"247 0x{idtype:x} 0x{pid:x} 0x7ffd00001000 0x{options:x} 0x0 0x0 0x7f0 0x7f1"


def shell(call: str, sigcgt: int = 1 << 1) -> Proc:
    return Proc(SHELL, (Th(SHELL, call),), parent=EMULATOR, sigcgt=sigcgt, pgrp=SHELL)


def tool(pid: int = TOOL, pgrp: int | None = None, by: str | None = TTY, call: str = TCSETS) -> Proc:
    return Proc(
        pid, (Th(pid, call, state="T"),), parent=SHELL, pgrp=pid if pgrp is None else pgrp, stopped_by=by
    )


HANG = (ProbeKind.DEADLOCK, names.STOPPED_CHILD)
NONE = (ProbeKind.IDLE, None)


@pytest.mark.parametrize(
    ("procs", "expected"),
    [
        ((shell(wait4(TOOL)), tool()), HANG),
        ((shell(wait4(-1)), tool()), HANG),
        ((shell(waitid(1, TOOL, 4)), tool()), HANG),
        ((shell(wait4(TOOL, options=2)), tool()), NONE),
        ((shell(waitid(1, TOOL, 4 | 2)), tool()), NONE),
        ((shell(wait4(TOOL)), tool(by=None, call=SLEEP)), NONE),
        ((shell(wait4(TOOL)), tool(pgrp=SHELL)), NONE),
        ((shell(wait4(TOOL)), tool(), Proc(OTHER, (Th(OTHER, SLEEP),), parent=SHELL)), NONE),
        ((shell(wait4(-1)), tool(), tool(pid=OTHER)), HANG),
        ((shell(wait4(TOOL), sigcgt=(1 << 1) | (1 << 9)), tool()), NONE),
    ],
    ids=[
        "the-hang-wait4-for-it",
        "wait4-for-any-child",
        "waitid-for-it-without-wstopped",
        "wait4-with-wuntraced-is-told",
        "waitid-with-wstopped-is-told",
        "stopped-by-a-signal-someone-sent",
        "in-its-parents-group-a-shells-job",
        "a-sibling-on-a-timer-may-continue-it",
        "every-child-stopped-by-the-terminal",
        "the-shell-catches-sigusr1",
    ],
)
def test_a_wait_for_a_child_stopped_by_job_control(
    procs: tuple[Proc, ...], expected: tuple[ProbeKind, str | None]
) -> None:
    j = World(procs).judged()[SHELL]
    assert (j.finding.kind, j.named.pattern if j.named else None) == expected, j.finding.reason


def test_its_facts_name_the_stopped_child_its_terminal_and_the_wait_that_is_never_told() -> None:
    j = World((shell(wait4(TOOL)), tool())).judged()[SHELL]
    assert j.named is not None
    assert j.named.facts == (
        ev.StoppedByTerminal(TOOL, TTY, "ioctl"),
        ev.ParentAwaitsExit(SHELL, f"wait4() for child {TOOL}", TOOL),
        ev.NotToldOfStops(SHELL, "wait4", ()),
    )
    assert j.waitfor is not None
    assert j.waitfor.end is End.NOBODY
