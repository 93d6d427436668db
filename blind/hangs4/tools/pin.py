#!/usr/bin/env python3
"""Write each case's portable pins into its case.json (`pins`: for hang, control and look-alike,
the CPython minor and the packages, read from the interpreters the corpus was built with) and its
expected end (`end`, from README.md's table), so the release gate can rebuild them anywhere."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

HERE = Path.cwd()  # run from the corpus's directory (blind/hangs, blind/hangs2)
ENDS = {
    "cycle": "cycle",
    "self-wait": "self-wait",
    "dead/gone party": "dead or gone party",
    "nobody in the tree can end it": "nobody can end it",
    "a party that itself waits forever": "nobody can end it",
    "an outside party may still end it": "may still end from outside",
}


def pins_of(python: str) -> dict[str, object]:
    version = subprocess.run(
        [python, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout.strip()
    packages: list[str] = []
    if "/venvs/" in python:
        out = subprocess.run([python, "-m", "pip", "freeze"], capture_output=True, text=True, timeout=120, check=True)
        packages = sorted(line for line in out.stdout.splitlines() if "==" in line)
    return {"cpython": version, "python": ".".join(version.split(".")[:2]), "packages": packages}


def main() -> None:
    ends = {}
    for line in (HERE / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 5 and re.match(r"\d\d_", cells[0]):
            ends[cells[0]] = ENDS[cells[4]]
    for case in sorted((HERE / "cases").iterdir()):
        cfg = json.loads((case / "case.json").read_text())
        cfg["pins"] = {
            prog: pins_of(cfg.get(f"{prog}_python", cfg["python"])) for prog in ("hang", "control", "lookalike")
        }
        cfg["end"] = ends[case.name]
        (case / "case.json").write_text(json.dumps(cfg, indent=1) + "\n")
        print(case.name, cfg["end"], cfg["pins"]["hang"])


if __name__ == "__main__":
    main()
