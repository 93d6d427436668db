"""Stacks: frames, the three views of a thread merged by id, one process's capture."""

from __future__ import annotations

from dataclasses import dataclass, field

from gvlstress.model.cores import KeptCore


@dataclass(frozen=True, slots=True)
class Frame:
    """One stack frame, Python or native; native names are demangled and hash-free."""

    name: str
    file: str | None = None
    line: int | None = None
    module: str | None = None


@dataclass(frozen=True)
class ToolRun:
    """How one diagnostic tool fared: the report says what is missing and why."""

    tool: str
    ok: bool
    elapsed_s: float
    command: tuple[str, ...] = ()
    error: str | None = None


@dataclass(frozen=True, slots=True)
class PyThread:
    """An interpreter thread as py-spy saw it."""

    tid: int
    name: str | None
    owns_gil: bool
    active: bool
    frames: tuple[Frame, ...]


@dataclass(frozen=True, slots=True)
class NativeThread:
    """A thread's native stack (eu-stack, gdb or pystack), innermost frame first."""

    tid: int
    name: str | None
    frames: tuple[Frame, ...]


@dataclass(frozen=True, slots=True)
class ThreadView:
    """One OS thread seen three ways, merged by thread id."""

    tid: int
    comm: str
    state: str
    syscall: str | None
    futex_addr: int | None
    wchan: str | None
    cpu_s: float
    voluntary_ctxt: int | None
    nonvoluntary_ctxt: int | None
    python: PyThread | None
    native: tuple[Frame, ...]

    @property
    def owns_gil(self) -> bool:
        return bool(self.python and self.python.owns_gil)

    @classmethod
    def of(
        cls, tid: int, python: PyThread | None, native: tuple[Frame, ...] = (), comm: str = ""
    ) -> ThreadView:
        """A view from the stacks alone (a later look, a thread /proc no longer shows): no
        /proc facts, which the rules that use it do not read."""
        return cls(tid, comm, "", None, None, None, 0.0, None, None, python, native)


@dataclass(frozen=True, slots=True)
class Local:
    """One local variable of a Python frame, where a rule needs it (a queue feeder's last item,
    an event loop's timers): only its type, or a number, None or a bool, never its contents (a
    repr may hold a secret)."""

    tid: int
    function: str
    name: str
    value: str
    """'<memoryview>', '<Result>', '3', 'None', 'True'."""


@dataclass(frozen=True)
class StackSample:
    """A later look at one process's stacks, within the window of its capture: whether a busy
    thread's stack moves or stays in one loop, and whether waits hold across the window."""

    at_s: float
    """Seconds after the capture's first look."""
    python: tuple[PyThread, ...]
    native: tuple[NativeThread, ...] = ()
    """Empty when only the Python view was resampled (cheap: py-spy alone)."""


@dataclass(frozen=True)
class Capture:
    """Everything captured from one process before it was killed (or, for inspect, left alone)."""

    pid: int
    threads: tuple[ThreadView, ...]
    pyspy: ToolRun
    native: ToolRun
    raw: dict[str, str] = field(default_factory=dict, metadata={"file_only": True})
    """Raw tool output by file name; written next to the report, not into run.json."""
    forked_from: int | None = None
    """The parent, when this process is a fork of it that never exec'd (same program, same
    arguments): it inherited the parent's memory, locks included, but only the forking thread."""
    foreign_tids: tuple[int, ...] = ()
    """Thread ids py-spy listed that this process does not have (/proc/PID/task): a fork whose
    interpreter still holds its parent's thread states (it has not finished fork())."""
    resamples: tuple[StackSample, ...] = ()
    """Later looks at the stacks within the window (the first look is `threads`)."""
    core: KeptCore | None = None
    """A core of the process written before it was killed (``--keep-core``), or why there is none."""
    locals: tuple[Local, ...] = ()
    """The locals the judge asked for (`judge.vocab.LOCALS_WANTED`), of frames it found."""

    def thread(self, tid: int | None) -> ThreadView | None:
        """The view of thread `tid`, if this capture has one."""
        return next((t for t in self.threads if t.tid == tid), None) if tid is not None else None
