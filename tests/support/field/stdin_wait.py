"""Shape: a job waiting for a line on its stdin (an interactive confirmation, a job fed by a pipe
that has nothing to say yet); a timer ends it when its time is up."""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import os
import sys
import threading

import _field


def main() -> None:
    _field.ready()
    threading.Timer(_field.left(), lambda: os._exit(0)).start()  # nobody answered: carry on
    line = sys.stdin.readline()
    print(f"got {line!r}", flush=True)


if __name__ == "__main__":
    main()
