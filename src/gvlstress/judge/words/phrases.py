"""Phrases several families share: thread ids for the reader, a count with its plural."""

from __future__ import annotations


def tids(ids: tuple[int, ...]) -> str:
    """Thread ids for the reader: the first six, and how many in all."""
    return ", ".join(map(str, ids[:6])) + (f", ... ({len(ids)} in all)" if len(ids) > 6 else "")


def plural(n: int, what: str) -> str:
    """`n` and `what`, with an 's' when there are several."""
    return f"{n} {what}{'s' if n > 1 else ''}"
