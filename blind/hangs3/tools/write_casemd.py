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

readme = f"""# Third blind corpus of real hangs (measure gvlstress blind)

Same format as `/work/main/blind/hangs2`: each folder under `cases/` holds `hang.py` (hangs every time, prints
`ready` when the wait is in place), `control.py` (the fix or the fixed release: it completes), `lookalike.py`
(same shape, healthy: completes by itself in about 16 s), `case.json` (interpreters, portable `pins`, expected
`end`) and `CASE.md` (source, pins, the expected wait-for chain and how it ends). None of these cases is among
the 62 of `blind/hangs` and `blind/hangs2` (neither the same bug nor the same mechanism in the same library).

- `/work/main/blind/tools/check.py` (run from this directory): quick self-check; `tools/repeat_hangs.py`: every
  hang started 3 times (`repeat-hangs.txt`).
- `/work/main/blind/tools/measure.py --code SRC`: runs gvlstress (`inspect --tree`, `watch --stall 3 --on-hang kill`);
  stage files `results-s*.json`, raw outputs under `runs/`.
- `tools/score.py results-s1.json results-s2.json ... [--md before.md]`: merges the stage files and scores them
  (caught, named to its end from the JSON reports, look-alikes/controls flagged, same words).
- `/work/main/blind/tools/pin.py`: writes `pins` and `end` into each case.json from this table.
- Venvs: `venvs/NAME` (re-create with `venvs/mk.sh NAME PYVER pkgs...`; versions in each CASE.md and case.json pins).

| case | library@version | source | mechanism | expected end |
|---|---|---|---|---|
""" + "\n".join(rows) + "\n"
(HERE / "README.md").write_text(readme)
print(len(rows), "cases")
