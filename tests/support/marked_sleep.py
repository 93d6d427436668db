"""Names its main thread ``gvls-newrule`` (prctl), prints ``ready`` and sleeps: a process only
the test rule of `newrule.py` names."""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import ctypes
import time

PR_SET_NAME = 15
ctypes.CDLL(None).prctl(PR_SET_NAME, b"gvls-newrule", 0, 0, 0)
print("ready", flush=True)
while True:
    time.sleep(3600)
