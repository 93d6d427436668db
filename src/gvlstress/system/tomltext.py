"""TOML written for a parser to read back: every key and value quoted by what it is, never pasted.

A generated file (a shrink's scenario.toml, a host profile) holds values gvlstress did not write
itself: paths, option keys, a loader's option values, variables read from another process. Each
goes through `key` or `value` here, so none can end its line, open a table or close its string
early, and `tomllib` reads back exactly what was written. The one thing TOML cannot hold is a
lone surrogate (a byte of a non-UTF-8 command line); it is written as U+FFFD, said by `lossy`.
Stdlib only.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from typing import Any

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_SHORT = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _char(c: str) -> str:
    if c in _SHORT:
        return _SHORT[c]
    if 0xD800 <= ord(c) <= 0xDFFF:
        return "\ufffd"  # TOML holds Unicode scalar values only
    if c.isprintable() and c != "\x7f":
        return c
    return f"\\u{ord(c):04X}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08X}"


def string(text: str) -> str:
    """A TOML basic string of `text`, on one line: quotes, backslashes, controls and every
    character that is not printable (line and paragraph separators too) escaped."""
    return '"' + "".join(map(_char, text)) + '"'


def lossy(text: str) -> bool:
    """Does `text` lose something in TOML (a lone surrogate, written as U+FFFD)?"""
    return any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def key(name: str) -> str:
    """A key: bare where TOML allows it (letters, digits, ``_`` and ``-``), quoted otherwise."""
    return name if name and set(name) <= _BARE else string(name)


def value(v: Any) -> str:
    """A TOML value of a plain value: booleans, integers, floats (inf and nan too), strings,
    dates and times, lists and tuples, and mappings (as inline tables). None has no TOML form."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return string(v)
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{key(str(k))} = {value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML form for {type(v).__name__}")


def comment(text: str) -> str:
    """`text` as one TOML comment line (``# ...``): nothing in it can start a new line."""
    return "# " + "".join(_char(c) if c in "\n\r" or not c.isprintable() else c for c in text)
