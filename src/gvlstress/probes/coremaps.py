"""What a core keeps of a process's memory (pure): ``/proc/PID/smaps`` parsed, the mappings the
kernel itself would dump, the runs of pages that exist, and the choice under the bound (thread
stacks first, then small mappings before large: a batch's buffers are what the bound leaves out).
"""

from __future__ import annotations

from dataclasses import dataclass

from gvlstress.probes import elfcore

MERGE_GAP = 16 * elfcore.PAGE
"""Absent pages between two present runs written as zeros (cheap) rather than split."""
_SKIP_PATHS = ("[vvar]", "[vvar_vclock]", "[vsyscall]")


@dataclass(frozen=True)
class Mapping:
    """One line of ``/proc/PID/smaps`` with its VmFlags."""

    start: int
    end: int
    perms: str
    offset: int
    path: str
    flags: frozenset[str] = frozenset()

    @property
    def file_backed(self) -> bool:
        return self.path.startswith("/") and not self.path.startswith(("/dev/zero", "/SYSV"))

    @property
    def size(self) -> int:
        return self.end - self.start


def parse_smaps(text: str) -> list[Mapping]:
    """Mappings (with their VmFlags) from a ``/proc/PID/smaps`` text."""
    out: list[Mapping] = []
    for line in text.splitlines():
        head = line.split(None, 5)
        if len(head) >= 5 and "-" in head[0] and len(head[1]) == 4:
            lo, _, hi = head[0].partition("-")
            try:
                out.append(
                    Mapping(
                        int(lo, 16),
                        int(hi, 16),
                        head[1],
                        int(head[2], 16),
                        head[5].strip() if len(head) > 5 else "",
                    )
                )
            except ValueError:
                continue
        elif line.startswith("VmFlags:") and out:
            last = out[-1]
            out[-1] = Mapping(
                last.start, last.end, last.perms, last.offset, last.path, frozenset(line.split()[1:])
            )
    return out


def dumpable(m: Mapping) -> bool:
    """What the kernel itself would consider: readable, not a device's I/O memory, not marked
    'do not dump', not the kernel's own pages."""
    if "r" not in m.perms or m.path in _SKIP_PATHS or {"io", "dd"} & m.flags:
        return False
    return not (m.path.startswith("/dev/") and not m.path.startswith("/dev/shm/"))


def runs(present: list[bool], start: int) -> list[tuple[int, int]]:
    """Address ranges of present pages, gaps shorter than MERGE_GAP bridged."""
    out: list[tuple[int, int]] = []
    for i, here in enumerate(present):
        if not here:
            continue
        lo = start + i * elfcore.PAGE
        if out and lo - out[-1][1] < MERGE_GAP:
            out[-1] = (out[-1][0], lo + elfcore.PAGE)
        else:
            out.append((lo, lo + elfcore.PAGE))
    return out


def choose(
    maps: list[Mapping], pieces: dict[Mapping, list[tuple[int, int]]], stack_ptrs: set[int], limit: int
) -> tuple[list[tuple[Mapping, int, int]], int]:
    """The ranges to save and the bytes the bound leaves out: thread stacks first, then small
    before large (interpreter state, arenas, module data before a batch's buffers)."""

    def rank(m: Mapping) -> tuple[int, int]:
        stack = any(m.start <= sp < m.end for sp in stack_ptrs) or m.path in ("[stack]", "[vdso]")
        return (0 if stack else 1, m.size)

    chosen: list[tuple[Mapping, int, int]] = []
    used = left = 0
    for m in sorted((m for m in maps if pieces.get(m)), key=rank):
        for lo, hi in pieces[m]:
            take = max(0, min(hi - lo, limit - used))
            take -= take % elfcore.PAGE
            if take:
                chosen.append((m, lo, lo + take))
                used += take
            left += hi - lo - take
    return sorted(chosen, key=lambda c: c[1]), left
