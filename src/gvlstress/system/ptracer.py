"""``python -m gvlstress.system.ptracer WATCHER -- COMMAND...``: declare the watcher a ptracer,
then become COMMAND (exec: same pid, nothing of this left).

Under Yama's restricted ptrace (``ptrace_scope`` 1) a process may attach only to its own
descendants, and the stack tools ``watch`` runs at a stall are its children, siblings of the job
rather than its ancestors. ``prctl(PR_SET_PTRACER, WATCHER)`` lets the watcher and its
descendants attach as if they were the job's parent; it survives exec. Stdlib only.
"""

from __future__ import annotations

import ctypes
import os
import sys

PR_SET_PTRACER = 0x59616D61


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: python -m gvlstress.system.ptracer WATCHER_PID -- COMMAND...\n")
        return 2
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PTRACER, int(argv[0]), 0, 0, 0)  # best effort
    try:
        os.execvp(argv[2], argv[2:])
    except OSError as exc:
        sys.stderr.write(f"gvlstress watch: cannot start {argv[2]!r}: {exc.strerror}\n")
        return 127
    return 0  # not reached: exec replaced this process


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
