"""Readable Rust (and C++) symbol names from whatever a stack tool printed.

Rust uses two manglings: legacy (``_ZN...17h<hash>E``, Itanium-shaped, with ``$LT$``-style
escapes) and v0 (``_R...``; the precompiled std uses it). binutils' c++filt reads both; without
it, legacy names are decoded here and v0 names are left as they are. Either way the
``::h<hash>`` and ``.llvm.<n>`` suffixes and v0 crate disambiguators (``std[e2829...]``) go.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from gvlstress.model import Frame
from gvlstress.probes import tools

_HASH = re.compile(r"::h[0-9a-f]{16}(?=$|[^0-9A-Za-z_])")
_LLVM = re.compile(r"\.llvm\.\d+")
_CRATE_DISAMBIGUATOR = re.compile(r"\[[0-9a-f]{4,16}\]")
_ESCAPES = {
    "$SP$": "@",
    "$BP$": "*",
    "$RF$": "&",
    "$LT$": "<",
    "$GT$": ">",
    "$LP$": "(",
    "$RP$": ")",
    "$C$": ",",
}
_UNICODE = re.compile(r"\$u([0-9a-fA-F]{2,6})\$")
_LEGACY = re.compile(r"^_?_ZN((?:\d+[^\d].*?)+)E(?:\.llvm\.\d+)?$")


def _unescape(part: str) -> str:
    if part.startswith("_$"):  # a component may not start with '$', so legacy mangling adds '_'
        part = part[1:]
    for k, v in _ESCAPES.items():
        part = part.replace(k, v)
    part = _UNICODE.sub(lambda m: chr(int(m.group(1), 16)), part)
    return part.replace("..", "::")


def legacy(symbol: str) -> str | None:
    """Decode a legacy Rust symbol (``_ZN3foo3bar17h0123456789abcdefE``); None if it is not one."""
    s = _LLVM.sub("", symbol)
    if not (s.startswith("_ZN") and s.endswith("E")):
        return None
    body, parts, i = s[3:-1], [], 0
    while i < len(body):
        j = i
        while j < len(body) and body[j].isdigit():
            j += 1
        if j == i:
            return None
        n = int(body[i:j])
        parts.append(body[j : j + n])
        i = j + n
    if i != len(body) or not parts:
        return None
    return "::".join(_unescape(p) for p in parts)


_INHERENT = re.compile(r"^<([^<> ]+)>::")


def clean(name: str) -> str:
    """Strip hashes, LLVM suffixes and crate disambiguators; decode leftover legacy escapes.

    v0 writes inherent methods as ``<std::sync::Mutex>::lock``: without a trait (`` as ``)
    in the brackets they say nothing, so they go too.
    """
    name = _LLVM.sub("", name)
    name = _CRATE_DISAMBIGUATOR.sub("", name)
    if "$" in name:
        name = "::".join(_unescape(p) for p in name.split("::"))
    name = _INHERENT.sub(r"\1::", name)
    return _HASH.sub("", name)


def _mangled(name: str) -> bool:
    return name.startswith(("_ZN", "_R", "__ZN", "__R"))


def demangle_all(names: list[str], timeout: float = 10.0) -> dict[str, str]:
    """Map every name to its readable form, with one c++filt call for all mangled ones."""
    out = {n: n for n in names}
    mangled = sorted({n for n in names if _mangled(n)})
    if mangled:
        cxxfilt = tools.find("c++filt")
        result = (
            tools.run([cxxfilt, "--no-params"], timeout, stdin="\n".join(mangled) + "\n") if cxxfilt else None
        )
        lines = result.stdout.splitlines() if result and result.ok else []
        if len(lines) == len(mangled):
            out.update(zip(mangled, lines, strict=True))
        else:
            out.update((n, legacy(n) or n) for n in mangled)
    return {k: clean(v) for k, v in out.items()}


_SEEN: dict[Frame, Frame] = {}
_SEEN_MAX = 200_000
"""Frames already made: the threads of one process, and the workers of one run, share most of
their frames (a hung 5 x 16 wave has ~25,000 frames and ~1,000 distinct ones); one object each
keeps a long hunt's memory flat. Bounded: cleared when full."""


def intern(frame: Frame) -> Frame:
    """The one shared object equal to `frame`."""
    got = _SEEN.get(frame)
    if got is None:
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        _SEEN[frame] = got = frame
    return got


def readable(stacks: Sequence[tuple[Frame, ...]]) -> list[tuple[Frame, ...]]:
    """The same stacks with every frame name demangled (one c++filt call for all of them), each
    frame a shared object (see `intern`)."""
    names = demangle_all(sorted({f.name for stack in stacks for f in stack}))
    return [tuple(intern(replace(f, name=names.get(f.name, f.name))) for f in stack) for stack in stacks]
