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

readme = f"""# Fourth blind corpus of real hangs (measure gvlstress blind)

Same format as `/work/main/blind/hangs3`: each folder under `cases/` holds `hang.py` (hangs every time, prints
`ready` when the wait is in place), `control.py` (the fix or the fixed release: it completes), `lookalike.py`
(same shape, healthy: completes by itself in about 16 s), `case.json` (interpreters, portable `pins`, expected
`end`) and `CASE.md` (source, pins, the expected wait-for chain and how it ends). None of these cases is among
the 87 of `blind/hangs`, `blind/hangs2` and `blind/hangs3` (neither the same bug nor the same mechanism in the same library).

- `tools/check.py` (run from this directory): quick self-check (`check-all.txt`); `tools/repeat_hangs.py`: every
  hang started 3 times (`repeat-hangs.txt`); `tools/trial.py PY SCRIPT`: one program under a deadline.
- `tools/measure.py --code SRC`: runs gvlstress (`inspect --tree`, `watch --stall 3 --on-hang kill`);
  stage files `results-s*.json`, raw outputs under `runs/`.
- `tools/score.py results-s1.json results-s2.json ... [--md before.md]`: merges the stage files and scores them
  (caught, named to its end from the JSON reports, look-alikes/controls flagged, same words).
- `tools/pin.py`: writes `pins` and `end` into each case.json from this table; `tools/casedata.py` +
  `tools/write_casemd.py`: the source of this README's table and of every CASE.md.
- Venvs: `venvs/NAME` (re-create with `venvs/mk.sh NAME PYVER pkgs...`; versions in each CASE.md and case.json pins).
  Case 21 needs `redis-server` (Debian package, 7.0.15 here) on PATH.

## Counts and measurement

- 28 cases: 14 standard library, 14 PyPI; 15 programs with more than one process (counting a re-parented job
  in case 25 and exited children whose part in the chain remains, as in cases 03 and 21); expected ends:
  9 cycle, 6 self-wait, 5 dead or gone party, 6 nobody can end it, 2 may still end from outside.
- Built 2026-11-28 outside the git checkout. `repeat-hangs.txt`: every hang started 3 times, 3/3 hung;
  `check-all.txt`: every hang stays hung, every control and look-alike ends (look-alikes in 16-18 s).
- BEFORE (blind, commit 652a6c4, worktree `/work/blind4-before`): `results-s1.json`..`results-s3.json` (stages,
  logs `measure-s*.log`), `results.json` (merged, with scores), `before.md` (per-case table and totals), raw
  outputs under `runs/`. Totals: caught 19/26 true hangs (inspect 17, watch 19), named to its end 13/28,
  look-alikes flagged 0/28, controls 0/28, same words 10/28.
- Note: while the BEFORE stages ran, another measurement not started by this helper (`--code
  /work/blind4-after/src`, files `results-after-s*.json`, `measure-after-s*.log`, `runs-after/`) ran on the
  same cases at the same time (its stage 3 overlapped this one's stage 3); the two share the 2 cores and the
  case folders (cases 16, 18, 22, 25 write a file there).

| case | library@version | source | mechanism | expected end |
|---|---|---|---|---|
""" + "\n".join(rows) + "\n"
(HERE / "README.md").write_text(readme)
print(len(rows), "cases")
