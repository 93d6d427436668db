"""Keep a hung process for later: a compressed ELF core of it, bounded in size (``--keep-core``).

Written by gvlstress itself: every thread held in a ptrace-stop (`system.threadstop`: seize and
interrupt, as chaos does; detached again after, so the process goes on exactly as it was), its
registers read (PTRACE_GETREGS), its memory read from ``/proc/PID/mem`` where
``/proc/PID/pagemap`` says a page exists, the result streamed through gzip. Why not gdb's
``gcore`` by default:

- pip alone: gdb is no pip package; pystack (a dependency) reads what this writes, compressed or not;
- bounded by design: read-only file-backed mappings (code, constants) are only named (NT_FILE),
  and every reader takes them from the files, as pystack, gdb and eu-stack do; pages never
  touched are left out; what remains is saved smallest mapping first (stacks before anything),
  up to the bound, so what the bound leaves out is the largest buffers (a batch's data), never a
  stack: on the fixture, gcore wrote 302 MB for a worker with 14 MB of its own memory;
- quick, with a deadline: the worker is held only while its own memory is read.

gcore is used where this writer cannot run (not x86_64) or when ``GVLSTRESS_CORE_WRITER=gcore``;
its file is kept only if it fits the bound once compressed.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import platform
import signal
import struct
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from gvlstress import __version__
from gvlstress.model.cores import KeptCore
from gvlstress.probes import elfcore, tools
from gvlstress.probes.coremaps import Mapping, choose, dumpable, parse_smaps, runs
from gvlstress.system.redact import redact_argv, redact_path
from gvlstress.system.threadstop import PTRACE_GETFPREGS, ThreadStopper

LIMIT_DEFAULT = 256 * 2**20
"""Memory saved per core by default (uncompressed): a Python worker's own memory is tens of MB."""
TIMEOUT_S = 60.0
WRITER_VAR = "GVLSTRESS_CORE_WRITER"
CHUNK = 1 << 20
LEVEL = 1
"""gzip level: a fixture worker's 16 MB became 2.7 MB in 0.6 s here (level 6: 2.3 MB in 1.9 s;
lzma: 1.7 MB in 2.5 s, and pystack reads gzip itself). Compressed after the worker is let go."""


def _present(pid: int, maps: list[Mapping]) -> dict[Mapping, list[tuple[int, int]]]:
    """What of each mapping is worth saving: every page that exists (present or swapped) of
    private and anonymous memory, the whole of a written file mapping (a library's data), and
    only the first page (its ELF header) of a read-only file mapping."""
    out: dict[Mapping, list[tuple[int, int]]] = {}
    with open(f"/proc/{pid}/pagemap", "rb", buffering=0) as pagemap:
        for m in maps:
            if not dumpable(m):
                continue
            if m.file_backed and "w" not in m.perms:
                if m.offset == 0:
                    out[m] = [(m.start, m.start + elfcore.PAGE)]
                continue
            if (m.file_backed and "p" in m.perms) or m.path == "[vdso]":
                out[m] = [(m.start, m.end)]
                continue
            pages = m.size // elfcore.PAGE
            raw = os.pread(pagemap.fileno(), pages * 8, m.start // elfcore.PAGE * 8)
            flags = struct.unpack(f"<{len(raw) // 8}Q", raw)
            out[m] = runs([bool(f >> 62 & 3) for f in flags], m.start)
    return out


@contextlib.contextmanager
def _held(pid: int) -> Iterator[ThreadStopper]:
    """Every thread of `pid` in a ptrace-stop for the block (threads born meanwhile too)."""
    stopper = ThreadStopper()
    try:
        for _ in range(5):
            fresh = [int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) not in stopper.held]
            if not fresh:
                break
            for tid in fresh:
                stopper.stop(tid)
        yield stopper
    finally:
        stopper.resume_all()


def _stat(pid: int, tid: int | None = None) -> list[str]:
    where = f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat"
    text = Path(where).read_text()
    return [text[: text.rindex(")")].partition("(")[2], *text[text.rindex(")") + 2 :].split()]


def _notes(pid: int, stopper: ThreadStopper) -> tuple[bytes, list[int], int]:
    """The note segment, every thread's stack pointer, and how many threads it holds."""
    st = _stat(pid)
    ids = (int(st[2]), int(st[3]), int(st[4]))
    clk = os.sysconf("SC_CLK_TCK")
    parts, sps = [], []
    rsp = elfcore.USER_REGS.index("rsp")
    for tid in sorted(stopper.held, key=lambda t: (t != pid, t)):
        regs = stopper.registers(tid)
        if regs is None:
            continue
        sps.append(struct.unpack_from("<Q", regs, rsp * 8)[0])
        ts = _stat(pid, tid)
        times = (int(ts[12]), int(ts[13]))
        parts.append(
            elfcore.note(elfcore.NT_PRSTATUS, elfcore.prstatus(tid, ids, regs, times, clk, signal.SIGSTOP))
        )
        fp = stopper.registers(tid, PTRACE_GETFPREGS, elfcore.FPREGS_SIZE)
        if fp is not None:
            parts.append(elfcore.note(elfcore.NT_PRFPREG, fp))
    status = Path(f"/proc/{pid}/status").read_text()
    uid = gid = 0
    for line in status.splitlines():
        if line.startswith(("Uid:", "Gid:")):
            value = int(line.split()[1])
            uid, gid = (value, gid) if line.startswith("Uid") else (uid, value)
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace").split("\0")
    psargs = " ".join(redact_argv([a for a in argv if a]))
    info = elfcore.prpsinfo(st[1], pid, ids, (uid, gid), st[0], psargs)
    parts.insert(min(2, len(parts)), elfcore.note(elfcore.NT_PRPSINFO, info))
    parts.append(elfcore.note(elfcore.NT_AUXV, Path(f"/proc/{pid}/auxv").read_bytes()))
    parts.append(elfcore.note(elfcore.NT_GVLSTRESS, f"gvlstress {__version__}".encode(), name=b"GVLSTRESS"))
    return b"".join(parts), sps, len(sps)


def _copy(out: BinaryIO, mem: int, lo: int, hi: int, deadline: float) -> bool:
    """Memory lo..hi into `out`; unreadable pages become zeros. False once past the deadline
    (the rest of the range is zeros: the file keeps its layout)."""
    at = lo
    while at < hi:
        n = min(CHUNK, hi - at)
        if time.monotonic() > deadline:
            out.seek(hi - at, os.SEEK_CUR)  # a hole: zeros, written by nobody
            return False
        try:
            data = os.pread(mem, n, at)
        except OSError:
            data = b"".join(_page(mem, p) for p in range(at, at + n, elfcore.PAGE))
        out.write(data.ljust(n, b"\0"))
        at += n
    return True


def _private(path: Path) -> BinaryIO:
    """A new file only its owner may read (0600): a core is a worker's memory, its environment's
    secrets with it; everything written beside a core is made so."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)  # the cores folder: 0700, whoever made it first
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    os.fchmod(fd, 0o600)  # a file left by an earlier try keeps its mode through O_TRUNC
    return os.fdopen(fd, "wb")


def _compress(raw: Path, path: Path, deadline: float) -> None:
    """`raw` gzipped into `path` (atomically, 0600), then removed; on any failure neither `raw`
    nor the partial file is left."""
    part = path.with_name(f".{path.name}.part")
    try:
        with raw.open("rb") as src, _private(part) as sink, gzip.GzipFile("", "wb", LEVEL, sink) as out:
            while chunk := src.read(CHUNK):
                if time.monotonic() > deadline:
                    raise OSError(0, "the deadline passed while the core was compressed")
                out.write(chunk)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
        raw.unlink(missing_ok=True)


def _page(mem: int, addr: int) -> bytes:
    try:
        return os.pread(mem, elfcore.PAGE, addr)
    except OSError:
        return bytes(elfcore.PAGE)


@dataclass(frozen=True)
class Keep:
    """Where the cores of one wave's hung workers go, and how much of each (``--keep-core``)."""

    run_dir: Path
    limit: int
    wave: int

    def name(self, pid: int) -> str:
        """The core's path relative to the run directory (as run.json records it)."""
        return f"cores/wave{self.wave + 1}-pid{pid}.core.gz"


def keep_all(keep: Keep, pids: list[int]) -> dict[int, KeptCore]:
    """A core of every pid, in parallel (each thread holds its own ptrace stops)."""
    if not pids:
        return {}
    with ThreadPoolExecutor(max_workers=len(pids), thread_name_prefix="gvlstress-core") as pool:
        futures = {pid: pool.submit(write, pid, keep.run_dir / keep.name(pid), keep.limit) for pid in pids}
        return {pid: replace(f.result(), path=keep.name(pid)) for pid, f in futures.items()}


def write(pid: int, path: Path, limit: int = LIMIT_DEFAULT, timeout: float = TIMEOUT_S) -> KeptCore:
    """A core of `pid` at `path` (gzip), by the writer this host supports; never raises for
    what the process or the host refuses: the record says why there is no core."""
    started = time.monotonic()
    exe = _exe(pid)
    chosen = os.environ.get(WRITER_VAR) or ("gvlstress" if platform.machine() == "x86_64" else "gcore")
    try:
        if chosen == "gcore":
            return _gcore(pid, path, limit, timeout, exe)
        return _own(pid, path, limit, started + timeout, exe)
    except (OSError, ValueError, struct.error) as exc:  # nothing partial is left beside the cores
        with contextlib.suppress(OSError):
            path.unlink()
        for partial in path.parent.glob(f".{path.name}.*"):
            partial.unlink(missing_ok=True)
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return KeptCore(
            str(path), chosen, False, time.monotonic() - started, limit_bytes=limit, executable=exe, error=why
        )


def _exe(pid: int) -> str:
    try:
        return redact_path(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return ""


def _own(pid: int, path: Path, limit: int, deadline: float, exe: str) -> KeptCore:
    """Layout first (notes, then the chosen ranges), memory copied raw while every thread is
    held (tens of milliseconds), compressed after they are let go."""
    started = time.monotonic()
    raw = path.with_name(f".{path.name}.raw")
    try:
        ranges, left, threads, complete = _raw(pid, raw, limit, deadline)
    except BaseException:  # a full disk, a process gone: no uncompressed memory is left behind
        raw.unlink(missing_ok=True)
        raise
    held = time.monotonic() - started
    _compress(raw, path, deadline)
    return KeptCore(
        str(path),
        "gvlstress",
        True,
        held,
        file_bytes=path.stat().st_size,
        saved_bytes=sum(hi - lo for lo, hi in ranges),
        left_out_bytes=left,
        limit_bytes=limit,
        threads=threads,
        executable=exe,
        total_s=time.monotonic() - started,
        error=None if complete else "the deadline passed while memory was copied: the rest is zeros",
    )


def _raw(pid: int, raw: Path, limit: int, deadline: float) -> tuple[list[tuple[int, int]], int, int, bool]:
    """The uncompressed core in `raw` (0600), written while every thread is held: the ranges
    saved, the bytes the bound left out, the threads held, and whether it is complete."""
    with _held(pid) as stopper:
        if not stopper.held:
            refused = ", ".join(sorted(set(stopper.refused.values()))) or "the threads could not be stopped"
            raise OSError(0, f"ptrace: {refused}")
        notes, sps, threads = _notes(pid, stopper)
        maps = parse_smaps(Path(f"/proc/{pid}/smaps").read_text())
        segments, left = choose(maps, _present(pid, maps), set(sps), limit)
        files = [(m.start, m.end, m.offset, m.path) for m in maps if m.file_backed]
        notes += elfcore.note(elfcore.NT_FILE, elfcore.file_note(files))
        head, ranges = elfcore.layout(notes, [(_flags(m.perms), lo, hi) for m, lo, hi in segments])
        complete = True
        mem = os.open(f"/proc/{pid}/mem", os.O_RDONLY | os.O_CLOEXEC)
        try:
            with _private(raw) as out:
                out.write(head)
                for lo, hi in ranges:
                    complete = _copy(out, mem, lo, hi, deadline) and complete
                out.truncate()
        finally:
            os.close(mem)
    return ranges, left, threads, complete


def _flags(perms: str) -> int:
    return sum(f for c, f in (("r", elfcore.PF_R), ("w", elfcore.PF_W), ("x", elfcore.PF_X)) if c in perms)


def _gcore(pid: int, path: Path, limit: int, timeout: float, exe: str) -> KeptCore:
    """gdb's gcore, compressed; kept only if the compressed file fits the bound."""
    started = time.monotonic()
    gcore = tools.find("gcore")
    if gcore is None:
        raise OSError(0, "gcore (gdb) is not installed and this machine has no gvlstress core writer")
    prefix = path.with_name(f".{path.name}.gcore")
    raw = Path(f"{prefix}.{pid}")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(path.parent, 0o700)  # gdb writes its core with the umask's mode: in a 0700 folder
        ran = tools.run([gcore, "-o", str(prefix), str(pid)], timeout, diagnostic=True)
        if not raw.is_file():
            raise OSError(0, f"gcore wrote no core ({ran.error or 'no reason given'})")
        raw.chmod(0o600)
        size = raw.stat().st_size
        with raw.open("rb") as src, _private(path) as sink, gzip.GzipFile("", "wb", LEVEL, sink) as out:
            while chunk := src.read(CHUNK):
                out.write(chunk)
    finally:
        raw.unlink(missing_ok=True)
    if path.stat().st_size > limit:
        kept = path.stat().st_size
        path.unlink()
        raise OSError(0, f"gcore's core is {kept} bytes compressed, over the {limit}-byte bound")
    took = time.monotonic() - started
    return KeptCore(
        str(path), "gcore", True, took, path.stat().st_size, size, 0, limit, executable=exe, total_s=took
    )
