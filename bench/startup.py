"""Start-up of the CLI against `pytest --version` measured in the same run (median of 7), as
ratios: `--version`, `--help` and each main command's `--help` (issue 45: goal <= 1.5x).

Both run as installed packages do: bytecode cached (one warm-up run each; PYTHONDONTWRITEBYTECODE
is dropped for the bench, since an editable checkout would otherwise compile every module on each
start while pytest's are compiled at install)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
RUNS = 7
GOAL = 1.5
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def median_s(cmd: list[str]) -> float:
    times = []
    subprocess.run(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, check=False, env=ENV
    )
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, check=False, env=ENV
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    base = median_s([str(BIN / "pytest"), "--version"])
    print(f"baseline: pytest --version {base:.3f}s (median of {RUNS})")
    for args in (["--version"], ["--help"], ["watch", "--help"], ["inspect", "--help"], ["run", "--help"]):
        took = median_s([str(BIN / "gvlstress"), *args])
        mark = "ok" if took <= GOAL * base else "over the goal"
        print(f"gvlstress {' '.join(args):<16} {took:.3f}s  {took / base:.2f}x  ({mark}: <= {GOAL}x)")


if __name__ == "__main__":
    main()
