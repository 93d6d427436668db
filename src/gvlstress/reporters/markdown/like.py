"""report.md's section on a ``--like`` run: the profile's host beside this one, condition by
condition, what could not be recreated, and what each wave had of it (read back)."""

from __future__ import annotations

from typing import Any

from gvlstress.model import RunResult, plural
from gvlstress.reporters.like import CONDITION_HEADER, condition_rows, missing_lines
from gvlstress.reporters.markdown.tables import code, prose, table


def _shown(key: str, r: dict[str, Any]) -> str:
    if key == "quota_fraction":
        return f"{100 * r['here']:.1f}%" if r.get("here") else "none"
    if key == "memory_limit":
        return f"{r.get('here')} bytes"
    if key == "pool":
        return "/".join(map(str, r.get("here") or [])) or "not reported"
    return f"{r['workers_matching']}/{r['workers']}"


CHECKS = (
    ("quota_fraction", "CPU quota fraction in force"),
    ("memory_limit", "memory limit in force"),
    ("pool", "pool size"),
    ("birth_env", "workers born with the host's knobs"),
)


def _checked(result: RunResult) -> list[str]:
    """Each condition checked in every wave, in one line: the values seen over the waves."""
    waves = [w.amplifiers.get("like") or {} for w in result.waves]
    if not waves:
        return []
    lines = []
    for key, label in CHECKS:
        seen = sorted({_shown(key, w[key]) for w in waves if key in w})
        if seen:
            lines.append(f"- {label}: {', '.join(seen)} (over {plural(len(waves), 'wave')})")
    gaps = sum(1 for w in result.waves for g in w.amplifiers.get("not_applied", ()) if g.startswith("like:"))
    lines.append(
        f"- **{plural(gaps, 'condition')} missing in a wave** (see the waves)"
        if gaps
        else "- every wave had every condition above"
    )
    return lines


def like_section(result: RunResult) -> list[str]:
    rec = result.like
    if rec is None:
        return []
    there = rec.there
    out = [
        "## Host recreated (--like)",
        "",
        prose(
            f"Profile {code(rec.profile)} of host {code(there.host or '?')}"
            + (f" (pid {there.process.pid})" if there.process.pid else "")
            + f", exported {there.exported_at or '?'} by gvlstress {there.gvlstress or '?'}, "
            f"recreated on {code(rec.here.host or '?')}. Pool per worker there: "
            f"{rec.pool if rec.pool is not None else '?'} ({rec.pool_how})."
        ),
        "",
        *table(CONDITION_HEADER, condition_rows(rec)),
        "",
    ]
    missing = missing_lines(rec)
    if missing:
        out += ["**Not recreated here:**", "", *[f"- {prose(m)}" for m in missing], ""]
    checked = _checked(result)
    if checked:
        out += ["Read back from each wave:", "", *checked, ""]
    return out
