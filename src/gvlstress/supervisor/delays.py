"""The delay layer's harness half (``--delays SEED``): where it is, what each wave's workers are
born with, and the placement it learns from hangs.

The layer itself (`native/preload/gvldelay.c`) delays a seeded few of a worker's futex waits and
wakes, ``sched_yield`` calls, pthread mutex locks and the waits CPython parks in. Sprayed
uniformly, nearly all of those delays land in a pool's idle spinning, far from any race. So,
as TSVD places its delays at the call sites of near-misses, placement is learned across waves:
each thread records in a table shared with the harness (one file per worker) the call site of
the wait it is blocked in; when a wave hangs, the sites where its hung threads wait (module and
offset, from the worker's ``/proc/PID/maps``) are counted, and later waves delay calls from
near the most-hung-at sites far more often (`HOT_PER_MILLION`) than anywhere else. What a run
learns is kept for the next run of the same target (`memory_file`), as TSVD keeps its trap file:
a site stays valid while its module's file is unchanged (same size and mtime).

The table layout is the C side's ``struct table``; keep the two in step.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import struct
import tempfile
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gvlstress.errors import UsageError
from gvlstress.model import ProbeKind
from gvlstress.supervisor.slots import Slot

__all__ = [
    "DELAY_LIB",
    "DelayLayer",
    "Region",
    "Table",
    "library",
    "load_memory",
    "memory_file",
    "parse_maps",
    "preloaded",
    "read_table",
    "require",
    "site_of",
    "sites_waited_at",
]

DELAY_LIB = "libgvldelay.so"
PER_MILLION = 3000
"""The share of interposed calls delayed anywhere (0.3%)..."""
HOT_PER_MILLION = 200_000
"""...and at a call site near a learned one (20%)..."""
MAX_US = 400
"""...each by 1 to this many microseconds (a preemption's worth, not a stall)."""
NEAR_BYTES = 2048
"""How far from a learned call site a call still counts as near it (the same function, or its
neighbours: a lock's wait and its unlock's wake sit a few hundred bytes apart)."""
MAX_SITES = 8
"""Learned sites handed to a wave: the most-hung-at ones (the layer holds up to 16)."""

_MAGIC = b"GVLDLY2\x00"
_HEADER = struct.Struct("<8s6Q")  # magic, nslots, calls, delays, delayed_us, hot_calls, hot_delays
_SLOT = struct.Struct("<3Q")  # tid, waiting, return address


def library() -> Path | None:
    """The layer built with the native loader (`native/preload/gvldelay.c`), if installed."""
    spec = importlib.util.find_spec("gvlstress_native")
    if spec is None or not spec.submodule_search_locations:
        return None
    lib = Path(next(iter(spec.submodule_search_locations))) / DELAY_LIB
    return lib if lib.is_file() else None


def require() -> Path:
    """The layer, or the usage error a run with ``--delays`` stops on before its first wave."""
    lib = library()
    if lib is None:
        raise UsageError(
            "--delays: the delay layer is not installed (hint: reinstall the native loader with a C "
            "compiler present: pip install ./native)"
        )
    return lib


def preloaded(pid: int) -> bool:
    """The layer is mapped into `pid` (the dynamic linker honoured LD_PRELOAD)."""
    return any(os.path.basename(r.path) == DELAY_LIB for r in regions(pid))


@dataclass(frozen=True)
class Table:
    """One worker's table: what the layer did there, and who is blocked where right now."""

    calls: int
    delays: int
    delayed_us: int
    hot_calls: int
    hot_delays: int
    waiting: tuple[tuple[int, int], ...]
    """(tid, return address of the wait's call) of each thread blocked in an interposed wait."""


def read_table(path: Path) -> Table | None:
    """A worker's table as the layer left it (None: absent, or not the layer's)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) < _HEADER.size:
        return None
    magic, nslots, calls, delays, delayed_us, hot_calls, hot_delays = _HEADER.unpack_from(data)
    if magic != _MAGIC or len(data) < _HEADER.size + nslots * _SLOT.size:
        return None
    waiting = []
    for tid, busy, ra in _SLOT.iter_unpack(data[_HEADER.size : _HEADER.size + nslots * _SLOT.size]):
        if tid and busy:
            waiting.append((tid, ra))
    return Table(calls, delays, delayed_us, hot_calls, hot_delays, tuple(sorted(waiting)))


@dataclass(frozen=True)
class Region:
    """One file-backed line of ``/proc/PID/maps``."""

    start: int
    end: int
    offset: int
    path: str


def parse_maps(text: str) -> tuple[Region, ...]:
    """The file-backed mappings of a ``/proc/PID/maps`` text."""
    out = []
    for line in text.splitlines():
        parts = line.split(maxsplit=5)
        if len(parts) < 6 or not parts[5].startswith("/"):
            continue
        lo, _, hi = parts[0].partition("-")
        try:
            out.append(Region(int(lo, 16), int(hi, 16), int(parts[2], 16), parts[5].strip()))
        except ValueError:
            continue
    return tuple(out)


def regions(pid: int) -> tuple[Region, ...]:
    """`pid`'s file-backed mappings (none once it is gone)."""
    try:
        return parse_maps(Path(f"/proc/{pid}/maps").read_text())
    except OSError:
        return ()


def site_of(address: int, maps: tuple[Region, ...]) -> str | None:
    """``module+0xOFFSET`` of a code address, the offset from the module's first mapping (the
    layer names its callers the same way from its own maps), so it names the same site in every
    worker."""
    hit = next((m for m in maps if m.start <= address < m.end), None)
    if hit is None:
        return None
    base = min((m.start for m in maps if m.path == hit.path and m.offset == 0), default=None)
    if base is None or base > address:
        return None
    return f"{os.path.basename(hit.path)}+0x{address - base:x}"


def sites_waited_at(table: Table, maps: tuple[Region, ...]) -> tuple[str, ...]:
    """The distinct call sites a hung worker's blocked threads wait at (the layer's own, and
    the C library's, never: a site is where the *caller* waits)."""
    found = {site_of(ra, maps) for _, ra in table.waiting}
    return tuple(sorted(s for s in found if s is not None and not s.startswith(DELAY_LIB)))


def memory_file(root: Path, target: str, fault: str, versions: dict[str, str]) -> Path:
    """Where the sites learned for one target (its fault mode and its versions) are kept."""
    key = json.dumps([target, fault, sorted(versions.items())])
    return root / "delays" / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.json"


def _module_id(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def load_memory(path: Path) -> Counter[str]:
    """Sites learned by earlier runs whose module is unchanged since (a rebuilt module's
    offsets mean other code: its sites are forgotten)."""
    return Counter({site: count for site, (count, _) in _remembered(path).items()})


def _remembered(path: Path) -> dict[str, tuple[int, str]]:
    """site -> (its count, its module's path) for the still-valid sites of a memory file."""
    try:
        kept = json.loads(path.read_text())["sites"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    out = {}
    for site, entry in kept.items() if isinstance(kept, dict) else ():
        with contextlib.suppress(KeyError, TypeError, ValueError):
            if _module_id(entry["module"]) == entry["id"]:
                out[site] = (int(entry["count"]), str(entry["module"]))
    return out


def deadlocked(hung: Mapping[int, Slot]) -> dict[int, set[int]]:
    """What the layer learns from: workers judged deadlocked (stacks seen), by pid, with the
    threads idle by design in each left out (an idle pool's sleep is where every process waits,
    not where a hang happens)."""
    out = {}
    for pid, s in hung.items():
        f = s.finding
        if f is not None and f.kind is ProbeKind.DEADLOCK:
            out[pid] = {int(t) for t, _, _ in (x.partition(":") for x in f.idle) if t.strip().isdigit()}
    return out


class DelayLayer:
    """One run's delay layer: the workers' birth environment, their tables, the learned sites.

    Learning counts each site once per hung worker it was found in; a wave gets the
    `MAX_SITES` most-counted, so a site seen in one odd hang does not outweigh one every hang
    shares. With a `memory` file, a run starts from what earlier runs learned and adds to it."""

    def __init__(self, table_dir: Path, memory: Path | None = None) -> None:
        self.lib = require()
        self.dir = table_dir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.memory = memory
        kept = _remembered(memory) if memory else {}
        self.learned: Counter[str] = Counter({site: count for site, (count, _) in kept.items()})
        self.modules: dict[str, str] = {site: module for site, (_, module) in kept.items()}
        """site -> the path of its module, as a worker mapped it (for the memory file)."""
        self.wave_sites: list[str] = []
        """The learned sites the current wave's workers were born with."""
        self.wave_learned: list[str] = []
        """What the current wave's hang taught."""

    def hot_sites(self) -> list[str]:
        return [site for site, _ in self.learned.most_common(MAX_SITES)]

    def begin_wave(self, seed: int) -> dict[str, str]:
        """A wave begins: the learned sites it gets are fixed now, and its workers' birth
        environment says so (the layer preloaded, its rates, those sites, where its table goes)."""
        preload = ":".join(p for p in (str(self.lib), os.environ.get("LD_PRELOAD", "")) if p)
        out = {
            "LD_PRELOAD": preload,
            "GVLSTRESS_DELAYS": f"{seed}:{PER_MILLION}:{MAX_US}",
            "GVLSTRESS_DELAY_TABLE": str(self.dir),
        }
        self.wave_sites, self.wave_learned = self.hot_sites(), []
        if self.wave_sites:
            out["GVLSTRESS_DELAY_SITES"] = f"{HOT_PER_MILLION}:{NEAR_BYTES}:{','.join(self.wave_sites)}"
        return out

    def learn(self, hung: dict[int, set[int]]) -> None:
        """Learn from deadlocked workers (pid -> the tids idle by design, left out), while they
        are still alive to map their addresses."""
        found: set[str] = set()
        for pid, idle in hung.items():
            table, maps = read_table(self.dir / f"{pid}.sites"), regions(pid)
            if table is None or not maps:
                continue
            blocked = replace(table, waiting=tuple(w for w in table.waiting if w[0] not in idle))
            sites = sites_waited_at(blocked, maps)
            self.learned.update(sites)
            found.update(sites)
            by_name = {os.path.basename(m.path): m.path for m in maps}
            self.modules.update({s: by_name[s.rpartition("+")[0]] for s in sites})
        if found:
            self._remember()
        self.wave_learned = sorted(found)

    def _remember(self) -> None:
        """Write the learned sites for the next run (atomically; best effort: a read-only cache
        only costs the next run its head start)."""
        if self.memory is None:
            return
        keep = {}
        for site, count in self.learned.most_common(4 * MAX_SITES):
            module = self.modules.get(site)
            ident = _module_id(module) if module else None
            if module and ident:
                keep[site] = {"count": count, "module": module, "id": ident}
        with contextlib.suppress(OSError):
            self.memory.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.memory.parent, suffix=".tmp")
            try:
                with os.fdopen(fd, "w") as fh:
                    json.dump({"sites": keep}, fh, indent=1)
                os.replace(tmp, self.memory)
            finally:
                Path(tmp).unlink(missing_ok=True)  # gone already once it was renamed

    def wave_record(self, pids: list[int]) -> dict[str, Any]:
        """What the layer did in a wave's workers (their tables summed), then the tables go."""
        tables = [t for pid in pids if (t := read_table(self.dir / f"{pid}.sites")) is not None]
        for f in self.dir.glob("*.sites"):
            f.unlink(missing_ok=True)
        return {
            "calls": sum(t.calls for t in tables),
            "delays": sum(t.delays for t in tables),
            "delayed_us": sum(t.delayed_us for t in tables),
            "hot_calls": sum(t.hot_calls for t in tables),
            "hot_delays": sum(t.hot_delays for t in tables),
            "workers_reporting": len(tables),
            "sites": self.wave_sites,
            "learned": self.wave_learned,
        }

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
