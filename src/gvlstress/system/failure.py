"""A loader's exception as data: made where it is raised, bounded, encodable, and never raising.

Stdlib only: spawned workers build a `Failure` from whatever their target raised and return it
as their result, so nothing of the user's exception object (its class, its ``__str__``,
``__repr__`` or ``__reduce__``) ever crosses the result pipe or runs in the supervisor. The
supervisor accepts that record and nothing else (`accept`); an exception that still reaches it
another way (the executor's own) is turned into the same record with the same function.

Bounds, the same on both sides: the type name <= 200 characters; the message <= 4 KiB; the
traceback <= 64 KiB (the innermost frames <= 16 KiB of it, then ``type: message`` with the
message's head and tail when the whole does not fit). Of a longer text only its first 85 KiB
and its last 43 KiB are read. Every field is redacted before it is cut (a cut never splits a
secret the rules would have seen whole) and made printable (`system.text`). The traceback is
the full text the harness keeps: in run.json (the worker's ``detail``) and in the run
directory's ``workers/wave<N>-slot<S>-pid<P>/error.txt``.
"""

from __future__ import annotations

import traceback
from typing import NamedTuple

from gvlstress.errors import UsageError
from gvlstress.system.redact import redact_block, redact_text
from gvlstress.system.text import clip, one_line, printable

TYPE_CHARS = 200
MESSAGE_CHARS = 4 * 1024
TRACEBACK_CHARS = 64 * 1024
FRAMES_CHARS = 16 * 1024
RAW_CHARS = 128 * 1024
"""Of a longer text only its head and tail, this much in all, are read (and redacted): more
than any bound above keeps, with room for redaction to see a secret at a cut whole."""

_QUALNAME = type.__dict__["__qualname__"]
_MODULE = type.__dict__["__module__"]


class Failure(NamedTuple):
    """What a worker's target raised, as the harness keeps it (every field bounded, printable,
    redacted). A tuple, not a dataclass: every spawned worker imports this module."""

    type: str
    """``module.QualName`` as a traceback names it (no module for builtins)."""
    message: str
    traceback: str
    """The traceback's frames (innermost kept) and its last line, ``type: message``."""
    message_chars: int = 0
    """How long the message was before it was cut."""


def _name(exc: BaseException) -> str:
    """The qualified name of what an exception's own code raised (never its message)."""
    return type_name(type(exc))


def type_name(tp: type) -> str:
    """``module.QualName`` of an exception class, read without running any of its code (a
    metaclass cannot intercept the descriptors of `type` itself; a str subclass is copied)."""
    try:
        qual = str.__str__(_QUALNAME.__get__(tp))
        module = _MODULE.__get__(tp)
        module = str.__str__(module) if isinstance(module, str) else "builtins"
    except BaseException:
        return "?"
    name = qual if module in ("builtins", "__main__") else f"{module}.{qual}"
    return one_line(clip(name, TYPE_CHARS))


def _message(exc: BaseException) -> tuple[str, bool]:
    """(str(exc), True); else (a line saying what str() raised, with repr(exc) when that
    works, False). Always an exact `str`: a subclass's own methods are never called on it."""
    try:
        return str.__str__(str(exc)), True
    except BaseException as err:
        failed = _name(err)
    try:
        shown = f"; repr: {str.__str__(repr(exc))}"
    except BaseException as err:
        shown = f"; repr() raised {_name(err)}"
    return f"<str() raised {failed}{shown}>", False


def _read(text: str) -> str:
    """A text as far as it is read: whole up to RAW_CHARS, else its head and its tail, redacted
    before anything shorter is cut from it, and made printable."""
    if len(text) > RAW_CHARS:
        text = clip(text, RAW_CHARS)
    return printable(redact_block(text))


def _keep_end(text: str, limit: int) -> str:
    """The last `limit` characters of a traceback's frames (the innermost, where it failed),
    from a line's start, after its first line and a marker."""
    if len(text) <= limit:
        return text
    first, _, rest = text.partition("\n")
    first = first[:200]
    tail = rest[len(rest) - limit + len(first) + 64 :]
    tail = tail[tail.find("\n") + 1 :]
    return f"{first}\n  [... {len(rest) - len(tail):,} characters of outer frames cut ...]\n{tail}"


def _parts(exc: BaseException) -> tuple[str, str]:
    """(what a traceback prints before its last line: chained exceptions, frames; its last
    line(s): ``type: message`` and notes). Python's own formatter first; where it raises on a
    hostile exception (``__notes__`` that raise, a SyntaxError's odd fields), the frames alone;
    then nothing."""
    try:
        te = traceback.TracebackException.from_exception(exc)
        only = list(te.format_exception_only())
        whole = list(te.format())
        if only and whole[len(whole) - len(only) :] == only:
            return "".join(whole[: len(whole) - len(only)]), "".join(only)
    except BaseException:
        pass
    try:
        return "Traceback (most recent call last):\n" + "".join(traceback.format_tb(exc.__traceback__)), ""
    except BaseException:
        return "", ""


def describe(exc: BaseException) -> Failure:
    """The record of `exc`. Never raises, whatever `exc` does (a failing ``__str__``,
    ``__repr__`` or ``__reduce__``, a message of any size, surrogates, NULs)."""
    try:
        kind = type_name(type(exc))
        raw, said = _message(exc)
        message = _read(raw)
        frames, last = _parts(exc)
        frames = _keep_end(_read(frames), FRAMES_CHARS)
        last = _read(last) if said and last else f"{kind}: {message}\n"
        text = frames + clip(last, TRACEBACK_CHARS - len(frames))
        return Failure(kind, clip(message, MESSAGE_CHARS), text.rstrip("\n"), len(raw))
    except BaseException as err:  # out of memory, recursion: still a record, never an exception
        return Failure("?", f"<describing the exception raised {_name(err)}>", "", 0)


def accept(record: object) -> Failure | None:
    """The record a worker returned, its bounds and encoding checked again (it crossed a pipe);
    None for anything that is not one."""
    if not isinstance(record, Failure):
        return None
    fields = [f if type(f) is str else "?" for f in record[:3]]
    kind, message, text = (printable(redact_block(f)) for f in fields)
    chars = record.message_chars if type(record.message_chars) is int else 0
    return Failure(
        one_line(clip(kind, TYPE_CHARS)), clip(message, MESSAGE_CHARS), clip(text, TRACEBACK_CHARS), chars
    )


def summary(exc: BaseException, limit: int = 300) -> str:
    """``type: first line of the message`` on one line, for a one-line error (a target that
    failed while gvlstress imported or prepared it)."""
    f = describe(exc)
    first = f.message.strip().split("\n", 1)[0] if f.message.strip() else ""
    return clip(one_line(f"{f.type}: {first}" if first else f.type), limit)


def user_error(what: str, exc: BaseException, hint: str | None = None) -> UsageError:
    """An exception (or SystemExit, or KeyboardInterrupt) raised by the user's code while we ran
    it (importing or preparing a target): one line naming it, exit 2 - never "a bug in
    gvlstress", never a silent exit, whatever the exception does when it is shown."""
    said = summary(exc)
    if isinstance(exc, SystemExit):
        code = exc.code if exc.code is None or type(exc.code) in (int, str) else type_name(type(exc.code))
        said = f"{type_name(type(exc))} with code {one_line(clip(redact_text(repr(code)), 200))}"
    return UsageError(f"{what} raised {said}", hint=hint or "run it by hand to see the traceback")
