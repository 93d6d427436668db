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
import struct
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
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


AT_ENTRY = 9
"""The auxiliary vector's entry: the program's entry point, an address inside its own mapping."""


def _program_notes(
    head: bytes,
) -> tuple[int | None, list[tuple[int, int, int, str]], list[tuple[int, int, int]]]:
    """From a core's head: the program's entry point (NT_AUXV), every file mapping (start, end,
    offset, path) from NT_FILE, and the PT_LOAD segments (address, file offset, size)."""
    phoff = struct.unpack_from("<Q", head, 32)[0]
    phentsize, phnum = struct.unpack_from("<HH", head, 54)
    entry, files, loads = None, [], []
    for i in range(phnum):
        at = phoff + i * phentsize
        if at + elfcore.PHDR_SIZE > len(head):
            break
        p_type, _, offset, vaddr, _, filesz, _, _ = struct.unpack_from("<IIQQQQQQ", head, at)
        if p_type == elfcore.PT_LOAD:
            loads.append((vaddr, offset, filesz))
            continue
        if p_type != elfcore.PT_NOTE or offset + filesz > len(head):
            continue
        seg, pos = head[offset : offset + filesz], 0
        while pos + 12 <= len(seg):
            namesz, descsz, ntype = struct.unpack_from("<III", seg, pos)
            pos += 12 + namesz + (-namesz % 4)
            desc = seg[pos : pos + descsz]
            pos += descsz + (-descsz % 4)
            if ntype == elfcore.NT_AUXV:
                pairs = struct.iter_unpack("<QQ", desc[: len(desc) // 16 * 16])
                entry = next((value for key, value in pairs if key == AT_ENTRY), entry)
            elif ntype == elfcore.NT_FILE and len(desc) >= 16:
                count, page = struct.unpack_from("<QQ", desc, 0)
                table = [
                    struct.unpack_from("<QQQ", desc, 16 + 24 * k)
                    for k in range(min(count, (len(desc) - 16) // 24))
                ]
                names = desc[16 + 24 * len(table) :].split(b"\0")
                files = [
                    (lo, hi, pg * page, n.decode("utf-8", "surrogateescape"))
                    for (lo, hi, pg), n in zip(table, names, strict=False)
                ]
    return entry, files, loads


@dataclass(frozen=True)
class Program:
    """The program a core's process ran, as the core names it (the file mapped where its entry
    point is), and the first page of that file as the core saved it (None when it did not)."""

    path: str
    head: bytes | None


def program(core: Path) -> Program | None:
    """The program the core ran, read from the core itself: the file whose mapping holds the
    auxiliary vector's entry point (the first file mapped, where a core has no NT_AUXV)."""
    with core.open("rb") as fh:
        head = fh.read(NOTES_BYTES)
        try:
            entry, files, loads = _program_notes(head)
        except struct.error:
            return None
        if not files:
            return None
        name = next((f[3] for f in files if entry is not None and f[0] <= entry < f[1]), files[0][3])
        start = min((f[0] for f in files if f[3] == name and f[2] == 0), default=None)
        for vaddr, offset, size in loads:
            if start is not None and vaddr <= start and start + elfcore.PAGE <= vaddr + size:
                fh.seek(offset + start - vaddr)
                return Program(name, fh.read(elfcore.PAGE))
    return Program(name, None)


def same_program(given: str, found: Program) -> bool | None:
    """Is the file `given` the program the core ran? The same file where the core's path exists
    here; else the same first page (its ELF header and build id) where the core saved it; None
    where neither can tell."""
    if os.path.exists(found.path):
        return os.path.samefile(given, found.path)
    if found.head is None:
        return None
    with open(given, "rb") as fh:
        return fh.read(elfcore.PAGE) == found.head


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
