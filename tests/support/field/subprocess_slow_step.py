"""Shape: a CI job's step waiting on a slow command (subprocess.run with a timeout, its output
captured): the parent in its communicate() poll, the child a shell in `sleep`."""

from __future__ import annotations

import os
import subprocess
import threading

import _field


def main() -> None:
    def announce() -> None:
        _field.settle(
            lambda: any(_field.children_of(c) for c in _field.children_of(os.getpid())), "the step's sleep"
        )
        _field.ready()

    threading.Thread(target=announce, daemon=True).start()
    seconds = _field.SECONDS + 1.0
    done = subprocess.run(
        ["sh", "-c", f'echo "step: building"; sleep {seconds:.1f}; echo "step: done"'],
        capture_output=True,
        text=True,
        timeout=_field.MAX_S + 30,
        check=True,
    )
    assert "step: done" in done.stdout


if __name__ == "__main__":
    main()
