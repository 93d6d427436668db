"""Markdown primitives: inline code, tables, values as a reader writes them."""

from __future__ import annotations


def _code(text: str) -> str:
    quote = "'"
    return f"`{text.replace('`', quote)}`"


def _range(xs: list[float]) -> str:
    lo, hi = f"{min(xs):.1f}", f"{max(xs):.1f}"
    return lo if lo == hi else f"{lo}-{hi}"


def _value(v: object) -> str:
    """A setting as a reader writes it: true/false, 2.5 not 2.5000, no Python reprs."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return out
