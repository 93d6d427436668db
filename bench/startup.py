"""Start-up of the CLI against `pytest --version` measured in the same run (median of 7), as
ratios: `--version`, `--help` and each main command's `--help` (issue 45: goal <= 1.5x)."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
RUNS = 7
GOAL = 1.5


def median_s(cmd: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, check=False)
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
