"""Host profiles in words: the lines `doctor --export` prints, the conditions table of a
``--like`` run, and the hosts side by side in `compare`. Computed once here, rendered by the
console and report.md each its own way."""

from __future__ import annotations

from gvlstress.model.profile import HostProfile, Recreation


def size(n: int | None) -> str:
    """Bytes as a person reads them: 8 GiB, 512 MiB."""
    if n is None:
        return "-"
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value >= 100 or value == int(value) else f"{value:.1f} {unit}"
    return f"{n} B"


def quota_text(p: HostProfile) -> str:
    c = p.cpu
    if c.quota is None:
        return "none"
    share = f"{100 * c.quota / c.affinity:.0f}% of the affinity" if c.affinity else ""
    return f"{c.quota:g} cores ({share}; cgroup v{c.cgroup_version or '?'})"


def memory_text(p: HostProfile) -> str:
    m = p.memory
    if m.limit is None:
        return "no limit"
    swap = (
        "no swap beyond it"
        if m.swap_limit == 0 or not m.swap_total
        else ("swap unlimited" if m.swap_limit is None else f"up to {size(m.swap_limit)} of swap beyond it")
    )
    return f"{size(m.limit)} ({swap})"


def knobs_text(knobs: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(knobs.items())) or "none set"


def pools_text(p: HostProfile) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(p.pools.items())) or "not measured"


def profile_lines(p: HostProfile) -> list[str]:
    """What `doctor --export` read, one line per part."""
    c, m, proc, s = p.cpu, p.memory, p.process, p.system
    return [
        f"CPUs: {c.count} online, affinity {c.affinity_list or c.affinity} ({c.affinity})"
        + (f", cpuset {c.cpuset}" if c.cpuset else "")
        + f"; cgroup CPU quota {quota_text(p)}",
        f"memory: {size(m.total)} RAM, {size(m.swap_total) if m.swap_total else 'no'} swap; "
        f"cgroup limit {memory_text(p)}",
        f"thread knobs: {knobs_text(p.threads)}",
        f"pools (threads, measured): {pools_text(p)}",
        f"start method: {proc.start_method or '-'} ({proc.start_method_how})",
        f"Python {proc.python or '?'} ({proc.implementation or '?'}); kernel {s.kernel}, glibc {s.glibc or '?'}, "
        f"{s.machine}",
        "packages: " + (", ".join(f"{k} {v}" for k, v in p.packages.items()) or "none of the target's found"),
    ]


CONDITION_HEADER = ["condition", "there", "here", "status"]


def condition_rows(rec: Recreation) -> list[list[str]]:
    """Each condition of a ``--like`` run: there, here, and whether it was recreated (and how)."""
    return [[c.name, c.there, c.here + (f" ({c.note})" if c.note else ""), c.status] for c in rec.conditions]


def missing_lines(rec: Recreation) -> list[str]:
    return list(rec.not_recreated)


HOST_ROWS = (
    "host",
    "CPUs (affinity)",
    "CPU quota",
    "memory limit",
    "RAM / swap",
    "thread knobs",
    "pools",
    "start method",
    "Python",
    "kernel / glibc",
    "packages",
)


def host_cells(p: HostProfile) -> list[str]:
    """One host's column in `compare`, in HOST_ROWS order."""
    return [
        p.host or "?",
        f"{p.cpu.count} ({p.cpu.affinity})",
        quota_text(p),
        memory_text(p),
        f"{size(p.memory.total)} / {size(p.memory.swap_total) if p.memory.swap_total else 'none'}",
        knobs_text(p.threads),
        pools_text(p),
        p.process.start_method or "not seen",
        p.process.python or "?",
        f"{p.system.kernel} / {p.system.glibc or '?'}",
        ", ".join(f"{k} {v}" for k, v in p.packages.items()) or "-",
    ]


def host_table(hosts: tuple[tuple[str, HostProfile], ...]) -> tuple[list[str], list[list[str]]]:
    """`compare`: the hosts side by side, one column each (header, rows)."""
    columns = [host_cells(p) for _, p in hosts]
    return ["", *(label for label, _ in hosts)], [
        [name, *(col[i] for col in columns)] for i, name in enumerate(HOST_ROWS)
    ]
