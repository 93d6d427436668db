"""Thread knobs: which environment variables a report may carry, and how workers get them.

Stdlib only: spawned workers use it to record the knobs they were born with.
A report lists the thread knobs and nothing else from the environment; values that look like
secrets are redacted even under an allowed name (``GVL_API_TOKEN`` is a ``GVL_*`` knob).
Redaction itself lives in `gvlstress.system.redact`, imported only when a value is redacted: a worker
records its raw knobs (`knob_values`) and the supervisor redacts them at the door.
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
# Long unbroken runs of token alphabet (API keys, JWTs, hex digests) do not belong in a thread knob.
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_\-+/=.]{24,}")


def is_knob(name: str) -> bool:
    return name in KNOB_NAMES or name.startswith(KNOB_PREFIXES)


def redact(name: str, value: str) -> str:
    """A thread knob's value, or REDACTED when the name or the value looks like a secret.

    A boolean or a number under a knob's name stays (``TOKENIZERS_PARALLELISM=false`` is a thread
    knob, not a token; ``MKL_LICENSE=...`` is a licence, not a knob value); anything that reads
    like a credential goes whole."""
    from gvlstress.system.redact import REDACTED, plain_value, redact_text, secret_name

    if secret_name(name) and not plain_value(value):
        return REDACTED
    if plain_value(value):
        return value
    if _TOKEN_LIKE.search(value) or redact_text(value) != value:
        return REDACTED
    return value


def redact_setting(name: str, value: str) -> str:
    """A setting the harness applied (not a thread knob): secret-named values go whole, others
    by value, so a cache path stays readable."""
    from gvlstress.system.redact import REDACTED, plain_value, redact_text, secret_name

    if secret_name(name) and not plain_value(value):
        return REDACTED
    return redact_text(value)


def knob_values(environ: Mapping[str, str]) -> dict[str, str]:
    """The thread knobs present in `environ`, as they are (a worker's record, redacted by the
    supervisor when it arrives), sorted by name."""
    return {k: environ[k] for k in sorted(environ) if is_knob(k)}


def thread_knobs(environ: Mapping[str, str]) -> dict[str, str]:
    """The thread knobs present in `environ`, redacted, sorted by name."""
    return {k: redact(k, v) for k, v in knob_values(environ).items()}


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
