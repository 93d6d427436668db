"""Install size of `pip install .` (the default install) and with each extra, each in a fresh venv,
in MB of site-packages, against the goal (issue 45: <= 60 MB for the default install)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_MB = 60.0


def size_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6


def installed(spec: str) -> float:
    with tempfile.TemporaryDirectory(prefix="gvlstress-size-") as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
        py = venv / "bin" / "python"
        base = size_mb(next(venv.glob("lib/python*/site-packages")))
        subprocess.run([str(py), "-m", "pip", "install", "-q", spec], check=True, timeout=1800, cwd=ROOT)
        return size_mb(next(venv.glob("lib/python*/site-packages"))) - base


def main() -> None:
    for spec in (".", ".[stats]", ".[all]"):
        mb = installed(spec)
        goal = f"  ({'ok' if mb <= GOAL_MB else 'over'}: <= {GOAL_MB:g} MB)" if spec == "." else ""
        print(f"pip install '{spec}': {mb:.0f} MB in site-packages (pip itself left out){goal}")


if __name__ == "__main__":
    main()
