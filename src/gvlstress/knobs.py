"""Thread knobs and secret redaction: which environment variables a report may carry.

Stdlib only: spawned workers use it to record the knobs they were born with.
A report lists the thread knobs and nothing else from the environment; values that look like
secrets are redacted even under an allowed name (``GVL_API_TOKEN`` is a ``GVL_*`` knob).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

KNOB_NAMES = (
    "RAYON_NUM_THREADS",
    "POLARS_MAX_THREADS",
    "TOKENIZERS_PARALLELISM",
    "NUMBA_NUM_THREADS",
)
KNOB_PREFIXES = ("GVL_", "OMP_", "MKL_", "OPENBLAS_")

REDACTED = "<redacted>"
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH|PRIVATE|SESSION|COOKIE", re.I)
# Long unbroken runs of token alphabet (API keys, JWTs, hex digests) do not belong in a thread knob.
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_\-+/=.]{24,}")


def is_knob(name: str) -> bool:
    return name in KNOB_NAMES or name.startswith(KNOB_PREFIXES)


def redact(name: str, value: str) -> str:
    """A thread knob's value, or REDACTED when the name or the value looks like a secret.

    A boolean or a number under a knob's name stays (``TOKENIZERS_PARALLELISM=false`` is a thread
    knob, not a token); anything that reads like a credential goes whole."""
    if is_knob(name) and _PLAIN_VALUE.fullmatch(value.strip()):
        return value
    if _SECRET_NAME.search(name) or _TOKEN_LIKE.search(value) or redact_text(value) != value:
        return REDACTED
    return value


_TEXT_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    # scheme://user:password@host: the password may hold any character but white space and @
    (re.compile(r"([a-z][a-z0-9+.-]*://[^\s:/@\"']+:)[^\s@\"']+@", re.I), r"\1" + REDACTED + "@"),
    (re.compile(r"\b(Bearer|Basic|Token)\s+[^\s\"']+", re.I), r"\1 " + REDACTED),
    (re.compile(r"\b(?:gh[pousr]_|github_pat_|hf_|sk-|xox[abprs]-)[A-Za-z0-9_\-]{8,}"), REDACTED),
    (re.compile(r"\bA(?:KIA|SIA)[0-9A-Z]{16}\b"), REDACTED),
    (re.compile(r"\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]+"), REDACTED),
)
# KEY=value / KEY: value where the key names a secret; the key is kept, the value goes.
_SECRET_ASSIGNMENT = re.compile(
    r"(?P<key>[\w.-]*(?:token|secret|passw(?:or)?d|api[_-]?key|access[_-]?key|auth|credential)[\w.-]*)"
    r"(?P<sep>[\"']?\s*[:=]\s*[\"']?)(?P<value>[^\s\"',;&]+)",
    re.I,
)
_PLAIN_VALUE = re.compile(r"(?i)true|false|yes|no|on|off|none|null|-?\d+(\.\d+)?")
_RANDOM_RUN = re.compile(r"[A-Za-z0-9+/=_\-]{32,}")
_RUN_STAMP = re.compile(r"\d{8}T\d{6}Z")
"""The UTC stamp that starts a run directory's name (reports/20261122T064720Z-adhoc)."""


def _looks_random(word: str) -> bool:
    """A long run that reads like a key (mixed classes, no word-like letter runs), not a
    mangled symbol such as ``_ZN6seqpro6_numba16gufunc_translate`` (which has words in it)."""
    if _RUN_STAMP.search(word):  # a path to one of our run directories: judge the other parts
        return any(_looks_random(p) for p in re.split(_RUN_STAMP.pattern + "|/", word) if len(p) >= 32)
    if re.fullmatch(r"[0-9a-fA-F]{32,}", word):
        return True
    classes = sum(bool(re.search(p, word)) for p in ("[a-z]", "[A-Z]", "[0-9]"))
    longest_letters = max((len(m) for m in re.findall(r"[a-z]+", word)), default=0)
    return classes == 3 and longest_letters < 6


def _assignment(m: re.Match[str]) -> str:
    """A thread knob (``TOKENIZERS_PARALLELISM=false``) or a plain boolean/number stays."""
    key, value = m.group("key"), m.group("value")
    if value == REDACTED or is_knob(key.upper()) or _PLAIN_VALUE.fullmatch(value):
        return m.group(0)
    return key + m.group("sep") + REDACTED


def redact_text(text: str) -> str:
    """Free text (a stderr line, a command line) with secrets replaced by value."""
    for pattern, repl in _TEXT_RULES:
        text = pattern.sub(repl, text)
    text = _SECRET_ASSIGNMENT.sub(_assignment, text)
    return _RANDOM_RUN.sub(lambda m: REDACTED if _looks_random(m.group(0)) else m.group(0), text)


def redact_setting(name: str, value: str) -> str:
    """A setting the harness applied (not a thread knob): secret-named values go whole, others
    by value, so a cache path stays readable."""
    if _SECRET_NAME.search(name) and not is_knob(name):
        return REDACTED
    return redact_text(value)


def thread_knobs(environ: Mapping[str, str]) -> dict[str, str]:
    """The thread knobs present in `environ`, redacted, sorted by name."""
    return {k: redact(k, environ[k]) for k in sorted(environ) if is_knob(k)}


_SECRET_FLAG = re.compile(
    r"^--?[\w-]*(token|secret|passw(or)?d|api[_-]?key|access[_-]?key|auth|credential)[\w-]*$", re.I
)


def redact_argv(argv: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """A command line with secrets redacted: by value in every argument, and the value after a
    secret-named flag (``--token X``, ``--password X``) whatever it looks like."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        if i and _SECRET_FLAG.match(argv[i - 1]) and "=" not in argv[i - 1]:
            out.append(REDACTED)
        else:
            out.append(redact_text(arg))
    return tuple(out)


@contextmanager
def environ_with(env: Mapping[str, str]) -> Iterator[None]:
    """`env` in os.environ while the block runs, so processes started inside are born with it;
    restored after (a variable that was unset is unset again)."""
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
