"""Text from outside made safe to store and show: printable, valid UTF-8, and of bounded size.

Stdlib only: spawned workers use it on what their target raises, and every reporter uses it on
what it renders. A string the harness did not write (an exception message, a thread name, a
stack tool's output, a path) may hold NULs, terminal escapes, lone surrogates (text decoded with
``surrogateescape``) or megabytes; each of those breaks some reader (an XML parser, a terminal,
a UTF-8 encoder, a 60 KB issue body). `printable` escapes them visibly instead of dropping them,
so a reader still sees that they were there; `clip` keeps the head and the tail of a long text.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""C0 controls but tab and newline (a CR rewrites a terminal line), DEL, C1 controls, lone
surrogates (no UTF-8 encoding), and the two noncharacters XML 1.0 forbids."""
_NAMED = {"\r": "\\r", "\x1b": "\\e"}
_TABLE = {
    code: _NAMED.get(chr(code)) or (f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}")
    for code in (*range(0x20), *range(0x7F, 0xA0), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF)
    if chr(code) not in "\t\n"
}


def printable(text: str) -> str:
    """`text` with every control character but tab and newline, and every lone surrogate,
    written as a visible escape (``\\x00``, ``\\e``, ``\\udcff``): valid UTF-8, valid in XML 1.0,
    inert on a terminal. Text without any is returned as it is (one regex search)."""
    if _UNSAFE.search(text) is None:
        return text
    return text.translate(_TABLE)


def one_line(text: str) -> str:
    """`printable`, with line breaks and tabs shown as ``\\n`` and ``\\t``: for a table cell, an
    XML attribute or a console line, where a break would start a new row."""
    return printable(text).replace("\n", "\\n").replace("\t", "\\t")


def clip(text: str, limit: int, what: str = "characters") -> str:
    """At most `limit` characters of `text`: when longer, its head and its tail (a message's
    start says what failed, its end often where) around a marker that says how much went. Cuts
    fall on a line break or a space near the cut where there is one, so no word is split."""
    if len(text) <= limit:
        return text
    room = len(_marker(len(text), what))
    if limit < 2 * room:
        return text[:limit]
    keep = limit - room
    head, tail = keep * 2 // 3, keep // 3
    h = _soft_end(text, head)
    t = _soft_start(text, len(text) - tail)
    return text[:h] + _marker(t - h, what) + text[t:]


def _marker(n: int, what: str) -> str:
    return f"[... {n:,} {what} cut ...]"


def _soft_end(text: str, at: int) -> int:
    """`at`, moved back to just after a break or a space within the last 1/8 before it."""
    span = max(at // 8, 1)
    for sep in ("\n", " "):
        i = text.rfind(sep, at - span, at)
        if i != -1:
            return i + 1
    return at


def _soft_start(text: str, at: int) -> int:
    """`at`, moved forward to a break or a space within the next 1/8 after it."""
    span = max((len(text) - at) // 8, 1)
    for sep in ("\n", " "):
        i = text.find(sep, at, at + span)
        if i != -1:
            return i
    return at
