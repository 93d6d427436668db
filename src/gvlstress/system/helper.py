"""Helper processes the harness feeds on their stdin (stdlib only: the pytest plugin imports it
in every pytest run)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess


def end_helper(proc: subprocess.Popen[bytes], grace: float) -> None:
    """End a helper process fed on its stdin (the line matcher, the plugin's watcher): EOF on its
    stdin, `grace` seconds to go, then SIGKILL to its process group; its pipes closed."""
    with contextlib.suppress(OSError):
        if proc.stdin is not None:
            proc.stdin.close()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)
    if proc.stdout is not None:
        proc.stdout.close()
