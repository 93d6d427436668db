"""One entry of the real-bug catalogue (`controls.catalogue`) and the words its fields take.

Shapes, for the docs: ``cycle`` (threads or processes wait on each other), ``spin`` (a thread
burns CPU in a loop for something that cannot come), ``lost task`` (a process pool waits for a
result no worker holds), ``peer`` (a wait on a pipe, socket or thread that will never act, or on a
lock whose holder died), ``lost wake-up`` (a wait for an item, a notify or a cancellation that was
lost on the way).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gvlstress.model.waitfor import End

BUGS_DIR = Path(__file__).parent / "bugs"
NO_RUNTIME = 4
"""A trigger's exit code when this host lacks what it needs (a skip, never a failure)."""


@dataclass(frozen=True)
class RealBug:
    name: str
    title: str
    source: str
    """The public report or documentation of the hang."""
    program: str
    pattern: str
    packages: tuple[str, ...] = ()
    """Pinned requirements (``name==version``) beyond the standard library."""
    tree: bool = False
    """Inspect the process with its descendants (the hang spans processes)."""
    control_packages: tuple[str, ...] | None = None
    """The control's pins when the fix is a release (None: the trigger's, the fix is in the code)."""
    verdict: str = "deadlock"
    """The verdict `inspect` must give (``livelock`` for a named spin)."""
    python: str | None = None
    """The CPython minor version (``"3.8"``) the pins need; None: the one running gvlstress."""
    env: tuple[tuple[str, str], ...] = ()
    """Environment variables the trigger and the control run with."""
    shape: str = "cycle"
    """What the hang is made of: ``cycle``, ``spin``, ``lost task``, ``peer``, ``lost wake-up``
    (see SHAPES)."""
    args: tuple[str, ...] = ()
    """The program's arguments (a variant), for the trigger and, after ``control``, the control."""
    end: End | None = None
    """Where its wait-for chain ends, when not where its pattern's does (`judge.ends.END_OF`)."""

    @property
    def script(self) -> Path:
        return BUGS_DIR / f"{self.program}.py"


SHAPES = ("cycle", "spin", "lost task", "peer", "lost wake-up")
