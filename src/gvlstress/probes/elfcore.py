"""The ELF core format, both ways (pure bytes in and out; x86_64 layouts).

What the kernel writes for a crashed process, and what gdb's ``gcore`` writes: an ELF header
(``ET_CORE``), a ``PT_NOTE`` segment, then one ``PT_LOAD`` per piece of saved memory. The notes
are per thread an ``NT_PRSTATUS`` (its general registers, its pid, its CPU times) and an
``NT_PRFPREG``, and once per process ``NT_PRPSINFO`` (state, name, arguments), ``NT_AUXV`` (the
auxiliary vector, where the dynamic loader put things) and ``NT_FILE`` (which file backs each
mapping: the tools read code and read-only data from those files, not from the core).

`read_notes` parses the same notes back (from a core gvlstress wrote or one from gcore or the
kernel): each thread's syscall number and arguments are in its registers (``orig_rax`` and the
argument registers), which is how a core still says which futex every thread waits on.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

ET_CORE = 4
EM_X86_64 = 62
PT_LOAD = 1
PT_NOTE = 4
PF_X, PF_W, PF_R = 1, 2, 4
NT_PRSTATUS = 1
NT_PRFPREG = 2
NT_PRPSINFO = 3
NT_AUXV = 6
NT_FILE = 0x46494C45
NT_GVLSTRESS = 0x47564C53
"""A note of our own (name "GVLSTRESS"): which gvlstress wrote the core. Readers skip it."""
EHDR_SIZE = 64
PHDR_SIZE = 56
PAGE = 4096

USER_REGS = (
    *("r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx", "rsi"),
    *("rdi", "orig_rax", "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs"),
)
"""x86_64's ``struct user_regs_struct`` (what PTRACE_GETREGS fills and NT_PRSTATUS holds)."""
REGS_SIZE = 8 * len(USER_REGS)
FPREGS_SIZE = 512
PRSTATUS_SIZE = 336
PRPSINFO_SIZE = 136
_REG_AT = 112
"""Where pr_reg starts in ``struct elf_prstatus`` (after siginfo, cursig, sigpend/hold, ids, times)."""
SYSCALL_ARGS = ("rdi", "rsi", "rdx", "r10", "r8", "r9")


def header(phnum: int) -> bytes:
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)  # 64-bit, little-endian, version 1, SysV
    return ident + struct.pack(
        "<HHIQQQIHHHHHH", ET_CORE, EM_X86_64, 1, 0, EHDR_SIZE, 0, 0, EHDR_SIZE, PHDR_SIZE, phnum, 0, 0, 0
    )


def phdr(p_type: int, flags: int, offset: int, vaddr: int, filesz: int, memsz: int, align: int) -> bytes:
    return struct.pack("<IIQQQQQQ", p_type, flags, offset, vaddr, 0, filesz, memsz, align)


def layout(notes: bytes, segments: list[tuple[int, int, int]]) -> tuple[bytes, list[tuple[int, int]]]:
    """The head of a core (ELF header, program headers, notes, padded to a page) for `notes`
    and the memory `segments` (flags, start, end) that follow it in order; and those ranges."""
    phnum = 1 + len(segments)
    notes_at = EHDR_SIZE + phnum * PHDR_SIZE
    data_at = -(-(notes_at + len(notes)) // PAGE) * PAGE
    heads = [phdr(PT_NOTE, 0, notes_at, 0, len(notes), 0, 4)]
    at = data_at
    for flags, lo, hi in segments:
        heads.append(phdr(PT_LOAD, flags, at, lo, hi - lo, hi - lo, PAGE))
        at += hi - lo
    head = header(phnum) + b"".join(heads) + notes
    return head.ljust(data_at, b"\0"), [(lo, hi) for _, lo, hi in segments]


def _pad4(data: bytes) -> bytes:
    return data + bytes(-len(data) % 4)


def note(ntype: int, desc: bytes, name: bytes = b"CORE") -> bytes:
    return struct.pack("<III", len(name) + 1, len(desc), ntype) + _pad4(name + b"\0") + _pad4(desc)


def _timeval(ticks: int, clk_tck: int) -> bytes:
    seconds, rest = divmod(ticks, clk_tck)
    return struct.pack("<qq", seconds, rest * 1_000_000 // clk_tck)


def prstatus(
    tid: int, ids: tuple[int, int, int], regs: bytes, times: tuple[int, int], clk_tck: int, signo: int
) -> bytes:
    """One thread's ``struct elf_prstatus``: `ids` are (ppid, pgrp, sid); `times` (utime,
    stime) in clock ticks; `regs` as PTRACE_GETREGS gave them."""
    head = struct.pack("<iiih2xQQiiii", signo, 0, 0, signo, 0, 0, tid, *ids)
    body = _timeval(times[0], clk_tck) + _timeval(times[1], clk_tck) + bytes(32)
    out = head + body + regs[:REGS_SIZE].ljust(REGS_SIZE, b"\0") + struct.pack("<i4x", 1)
    assert len(out) == PRSTATUS_SIZE
    return out


def prpsinfo(
    state: str, pid: int, ids: tuple[int, int, int], uid_gid: tuple[int, int], fname: str, psargs: str
) -> bytes:
    """The process's ``struct elf_prpsinfo`` (state letter, ids, command name and arguments)."""
    sname = state[:1] or "S"
    index = "RSDTZW".find(sname)
    out = struct.pack(
        "<bcbb4xQIIiiii16s80s",
        max(index, 0),
        sname.encode("ascii", "replace"),
        int(sname == "Z"),
        0,
        0,
        *uid_gid,
        pid,
        *ids,
        fname.encode("utf-8", "replace")[:15],
        psargs.encode("utf-8", "replace")[:79],
    )
    assert len(out) == PRPSINFO_SIZE
    return out


def file_note(files: list[tuple[int, int, int, str]]) -> bytes:
    """``NT_FILE``: (start, end, file offset in bytes, path) per file-backed mapping."""
    head = struct.pack("<QQ", len(files), PAGE)
    table = b"".join(struct.pack("<QQQ", s, e, off // PAGE) for s, e, off, _ in files)
    names = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for *_, p in files)
    return head + table + names


@dataclass(frozen=True)
class CoreThread:
    """One thread as a core's NT_PRSTATUS holds it."""

    tid: int
    signal: int
    regs: dict[str, int]
    utime_us: int
    stime_us: int

    @property
    def syscall(self) -> int | None:
        """The syscall it was in when stopped (``orig_rax``), None in user code."""
        nr = self.regs.get("orig_rax", -1)
        return nr if 0 <= nr < 1 << 31 else None

    @property
    def args(self) -> tuple[int, ...]:
        return tuple(self.regs.get(r, 0) for r in SYSCALL_ARGS)


@dataclass(frozen=True)
class CoreNotes:
    """What a core says about its process besides memory."""

    pid: int
    state: str
    fname: str
    psargs: str
    threads: tuple[CoreThread, ...]
    files: tuple[str, ...]
    loads: int
    """PT_LOAD segments (pieces of saved memory)."""
    saved_bytes: int
    writer: str
    """'gvlstress X.Y' when gvlstress wrote it, else 'gcore or the kernel'."""


class NotACore(ValueError):
    """The bytes are not an x86_64 ELF core."""


def read_notes(data: bytes) -> CoreNotes:
    """The notes of an ELF core. `data` holds at least its headers and its PT_NOTE segment
    (a core's notes come first, so the head of a big file is enough)."""
    if len(data) < EHDR_SIZE or data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise NotACore("not a 64-bit little-endian ELF file")
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    phoff = struct.unpack_from("<Q", data, 32)[0]
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    if e_type != ET_CORE:
        raise NotACore(f"an ELF file of type {e_type}, not a core (type {ET_CORE})")
    if e_machine != EM_X86_64:
        raise NotACore(f"a core of machine {e_machine}; only x86_64 cores (62) are read")
    threads: list[CoreThread] = []
    files: tuple[str, ...] = ()
    psinfo: tuple[str, int, str, str] = ("?", 0, "?", "")
    writer = "gcore or the kernel"
    loads = saved = 0
    for i in range(phnum):
        at = phoff + i * phentsize
        if at + PHDR_SIZE > len(data):
            raise NotACore("the program headers are cut short")
        p_type, _, offset, _, _, filesz, _, _ = struct.unpack_from("<IIQQQQQQ", data, at)
        if p_type == PT_LOAD:
            loads += 1
            saved += filesz
        elif p_type == PT_NOTE:
            if offset + filesz > len(data):
                raise NotACore("the note segment is cut short")
            for ntype, desc in _notes(data[offset : offset + filesz]):
                if ntype == NT_PRSTATUS and len(desc) >= PRSTATUS_SIZE:
                    threads.append(_thread(desc))
                elif ntype == NT_PRPSINFO and len(desc) >= PRPSINFO_SIZE:
                    psinfo = _psinfo(desc)
                elif ntype == NT_FILE:
                    files = _files(desc)
                elif ntype == NT_GVLSTRESS:
                    writer = desc.decode("utf-8", "replace")[:80]
    if not threads:
        raise NotACore("the core has no thread (no NT_PRSTATUS note)")
    state, pid, fname, psargs = psinfo
    return CoreNotes(pid or threads[0].tid, state, fname, psargs, tuple(threads), files, loads, saved, writer)


def _notes(seg: bytes) -> list[tuple[int, bytes]]:
    out, at = [], 0
    while at + 12 <= len(seg):
        namesz, descsz, ntype = struct.unpack_from("<III", seg, at)
        at += 12 + namesz + (-namesz % 4)
        out.append((ntype, seg[at : at + descsz]))
        at += descsz + (-descsz % 4)
    return out


def _thread(desc: bytes) -> CoreThread:
    signo = struct.unpack_from("<h", desc, 12)[0]
    tid = struct.unpack_from("<i", desc, 32)[0]
    us, um, ss, sm = struct.unpack_from("<qqqq", desc, 48)
    values = struct.unpack_from(f"<{len(USER_REGS)}q", desc, _REG_AT)
    return CoreThread(tid, signo, dict(zip(USER_REGS, values, strict=True)), us * 10**6 + um, ss * 10**6 + sm)


def _psinfo(desc: bytes) -> tuple[str, int, str, str]:
    sname = desc[1:2].decode("ascii", "replace")
    pid = struct.unpack_from("<i", desc, 24)[0]
    fname = desc[40:56].split(b"\0", 1)[0].decode("utf-8", "replace")
    psargs = desc[56:136].split(b"\0", 1)[0].decode("utf-8", "replace")
    return sname, pid, fname, psargs


def _files(desc: bytes) -> tuple[str, ...]:
    if len(desc) < 16:
        return ()
    count = struct.unpack_from("<Q", desc, 0)[0]
    names = desc[16 + 24 * count :].split(b"\0")
    return tuple(dict.fromkeys(n.decode("utf-8", "replace") for n in names[:count] if n))
