#!/usr/bin/env python3
"""Write cases/*/CASE.md and README.md (with the table pin.py reads) from tools/casedata.py."""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "tools"))
import casedata  # noqa: E402

rows = []
for name, d in casedata.CASES.items():
    cfg = json.loads((HERE / "cases" / name / "case.json").read_text())
    interp = ", ".join(f"`{k}` = `{v}`" for k, v in cfg.items() if k.endswith("python"))
    chain = "\n".join(f"{i}. {c}" for i, c in enumerate(d["chain"], 1))
    md = f"""# {name}

**Source:** {d['source']}

**Pinned:** {d['lib']}

**Interpreters (case.json):** {interp}

**Mechanism:** {d['mech']}

## Expected explanation (wait-for chain)

{chain}

**How the chain ends:** {d['end_text']}

## Control and look-alike

- `control.py`: the same program with the fix or the fixed release ({d['control']}); it completes.
- `lookalike.py`: same shape, healthy: {d['look']}; it completes by itself.
- Every program prints `ready` when its wait (or its shape) is in place; `hang.py` stays hung until killed.
"""
    (HERE / "cases" / name / "CASE.md").write_text(md)
    rows.append(f"| {name} | {d['lib']} | {d['source']} | {d['mech']} | {d['end']} |")

readme_path = HERE / "README.md"
intro = readme_path.read_text().split("\n| case |")[0] if readme_path.exists() else "# Sixth blind corpus of real hangs\n"
table = "| case | library@version | source | mechanism | expected end |\n|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
readme_path.write_text(intro.rstrip() + "\n\n\n" + table)
print("wrote", len(rows), "CASE.md files and the README table")
