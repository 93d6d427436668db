"""Read a core offline: its threads as a /proc sample would show them, its stacks by pystack.

A core is one instant of a process without the kernel beside it. Each thread's registers still
say which syscall it was in and with what arguments (``orig_rax`` and the argument registers):
the futex a thread waits on, and whether that wait has a timeout, come through. What does not:
the wait channel, CPU over a window (a thread in user code is called running, spin or work
alike), context switches, what a descriptor is, and the other processes (see
`model.cores.CORE_LACKS`). `capture` gives the same `Capture` a live look gives, with pystack's
Python view (GIL status per thread) standing in for py-spy's.
"""

from __future__ import annotations

import contextlib
import gzip
import lzma
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, cast

from gvlstress.model import Frame, NativeThread, ProcSample, PyThread, ThreadSample, ToolRun
from gvlstress.model.syscalls import CLK_TCK, futex_syscalls
from gvlstress.probes import elfcore, tools
from gvlstress.probes.capture import Stacks
from gvlstress.probes.demangle import readable
from gvlstress.probes.native import parse_pystack
from gvlstress.system import watchdog

MAX_RAW_BYTES = 16 * 2**30
"""A compressed core is unpacked up to this size (a bigger one is refused: a bomb, or no core)."""
NOTES_BYTES = 64 * 2**20
"""A core's headers and notes come first; this much of it is read for them."""
PYSTACK_TIMEOUT_S = 120.0
WINDOW_S = 1.0
"""The nominal window of the two identical samples a core gives (no CPU passes in it)."""


class CoreError(ValueError):
    """A file that cannot be read as a core (the API turns it into a usage error)."""


def _opener(path: Path) -> tuple[str, IO[bytes]]:
    with path.open("rb") as fh:
        magic = fh.read(6)
    if magic.startswith(b"\x1f\x8b"):
        return "gzip", cast("IO[bytes]", gzip.open(path, "rb"))
    if magic.startswith(b"\xfd7zXZ"):
        return "xz", cast("IO[bytes]", lzma.open(path, "rb"))
    return "raw", path.open("rb")


def unpacked(path: Path, scratch: Path) -> Path:
    """`path` itself when it is a plain core, else its contents unpacked into `scratch` (whole
    runs of zeros left as holes: a core's untouched memory costs no disk)."""
    kind, src = _opener(path)
    with src:
        if kind == "raw":
            return path
        out = scratch / (path.name.removesuffix(".gz").removesuffix(".xz") or "core")
        total = 0
        zero = bytes(1 << 16)
        try:
            with out.open("wb") as dst:
                while chunk := src.read(1 << 16):
                    total += len(chunk)
                    if total > MAX_RAW_BYTES:
                        raise CoreError(f"unpacks to more than {MAX_RAW_BYTES >> 30} GiB")
                    if chunk == zero[: len(chunk)]:
                        dst.seek(len(chunk), os.SEEK_CUR)
                    else:
                        dst.write(chunk)
                dst.truncate()
        except (OSError, EOFError, lzma.LZMAError) as exc:
            if isinstance(exc, OSError) and not isinstance(exc, gzip.BadGzipFile):
                raise
            raise CoreError(f"the {kind} stream is damaged ({exc})") from None
        return out


def notes(core: Path) -> elfcore.CoreNotes:
    with core.open("rb") as fh:
        head = fh.read(NOTES_BYTES)
    try:
        return elfcore.read_notes(head)
    except elfcore.NotACore as exc:
        raise CoreError(str(exc)) from None


def sample(found: elfcore.CoreNotes, names: dict[int, str], at: float = 0.0) -> ProcSample:
    """The core's threads as a /proc sample: a thread in a syscall is asleep in it (its number
    and arguments from its registers), any other was running user code when it was stopped."""
    futex = futex_syscalls("x86_64")
    threads = tuple(
        ThreadSample(
            tid=t.tid,
            comm=names.get(t.tid) or found.fname,
            state="S" if t.syscall is not None else "R",
            wchan=None,
            syscall=t.syscall,
            futex_addr=t.args[0] if t.syscall in futex else None,
            utime=t.utime_us * CLK_TCK // 10**6,
            stime=t.stime_us * CLK_TCK // 10**6,
            voluntary_ctxt=None,
            nonvoluntary_ctxt=None,
            args=t.args if t.syscall is not None else (),
        )
        for t in found.threads
    )
    return ProcSample(found.pid, at, threads)


_PS_HEAD = re.compile(r"^Traceback for thread (\d+)(?: \((.*?)\))?(?: \[(.*?)\])?")
_PS_PY = re.compile(r'^\s+\(Python\) File "(.*?)", line (\d+), in (.*?)\s*$')


def parse_pystack_python(text: str) -> tuple[PyThread, ...]:
    """pystack's Python view of every interpreter thread: its Python frames (innermost first)
    and its GIL status. A thread with neither a Python frame nor a GIL status is no
    interpreter thread (a rayon worker), as py-spy would not list it."""
    out: list[PyThread] = []
    current: tuple[int, str, str] | None = None
    frames: list[Frame] = []

    def close() -> None:
        if current is not None:
            tid, name, status = current
            gil = "Has the GIL" in status
            if frames or gil or "GIL" in status:
                out.append(PyThread(tid, name or None, gil, gil, tuple(reversed(frames))))

    for line in text.splitlines():
        if m := _PS_HEAD.match(line):
            close()
            current, frames = (int(m.group(1)), m.group(2) or "", m.group(3) or ""), []
        elif current is not None and (m := _PS_PY.match(line)):
            frames.append(Frame(name=m.group(3), file=m.group(1), line=int(m.group(2)) or None))
    close()
    return tuple(out)


def stacks(core: Path, executable: str, pid: int) -> Stacks:
    """pystack's look at the core: both views from one run (``pystack core --native-all``)."""
    at = time.monotonic()
    path = tools.find("pystack")
    if path is None:
        missing = ToolRun("pystack", False, 0.0, (), "pystack not found (pip install pystack)")
        return Stacks(pid, at, missing, (), None, missing, (), None)
    argv = [path, "core", str(core), executable, "--native-all", "--no-color"]
    out = tools.run(argv, PYSTACK_TIMEOUT_S, diagnostic=True)
    native = parse_pystack(out.stdout)
    native = tuple(
        NativeThread(t.tid, t.name, f)
        for t, f in zip(native, readable([t.frames for t in native]), strict=True)
    )
    python = parse_pystack_python(out.stdout)
    error = None if native else (out.error or "pystack printed no stacks")
    run = ToolRun("pystack", bool(native), out.elapsed_s, tuple(argv), error)
    raw = (out.stdout + out.stderr) or None
    return Stacks(pid, at, run, python, None, run, native, raw)


def thread_names(raw: str | None) -> dict[int, str]:
    """Thread names as pystack printed them (a core has no comm per thread)."""
    heads = (m for line in (raw or "").splitlines() if (m := _PS_HEAD.match(line)))
    return {int(m.group(1)): m.group(2) for m in heads if m.group(2)}


@contextlib.contextmanager
def scratch_dir() -> Iterator[Path]:
    """A directory for an unpacked core, removed however the look ends (by the watchdog too,
    if the harness dies)."""
    path = Path(tempfile.mkdtemp(prefix="gvlstress-core-"))
    watchdog.remove_on_death(str(path))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
