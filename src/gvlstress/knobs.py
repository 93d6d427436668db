"""Thread knobs and secret redaction: which environment variables a report may carry.

Stdlib only: spawned workers use it to record the knobs they were born with.
A report lists the thread knobs and nothing else from the environment; values that look like
secrets are redacted even under an allowed name (``GVL_API_TOKEN`` is a ``GVL_*`` knob).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

KNOB_NAMES = (
    "RAYON_NUM_THREADS",
    "POLARS_MAX_THREADS",
    "TOKENIZERS_PARALLELISM",
    "NUMBA_NUM_THREADS",
)
KNOB_PREFIXES = ("GVL_", "OMP_", "MKL_", "OPENBLAS_")

REDACTED = "<redacted>"
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH|PRIVATE|SESSION|COOKIE", re.I)
_URL_CREDENTIALS = re.compile(r"[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@", re.I)
# Long unbroken runs of token alphabet (API keys, JWTs, hex digests) do not belong in a thread knob.
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_\-+/=.]{24,}")


def is_knob(name: str) -> bool:
    return name in KNOB_NAMES or name.startswith(KNOB_PREFIXES)


def redact(name: str, value: str) -> str:
    """The value, or REDACTED when the name or the value looks like a secret."""
    if _SECRET_NAME.search(name) or _URL_CREDENTIALS.search(value) or _TOKEN_LIKE.search(value):
        return REDACTED
    return value


def thread_knobs(environ: Mapping[str, str]) -> dict[str, str]:
    """The thread knobs present in `environ`, redacted, sorted by name."""
    return {k: redact(k, environ[k]) for k in sorted(environ) if is_knob(k)}
