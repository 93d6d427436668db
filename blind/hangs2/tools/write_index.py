"""Write README.md: the case list and how to run."""
import json, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from casedata import CASES
ROOT = Path(__file__).resolve().parent.parent
def kind(end):
    e = end.lower()
    for k in ("cycle", "self-wait", "dead/gone party", "dead party", "a party that itself waits forever", "nobody in the tree can end it", "an outside party may still end it"):
        if e.startswith(k):
            return {"dead party": "dead/gone party"}.get(k, k)
    return e.split(":")[0]
lines = ["# Second blind corpus of real hangs (measure gvlstress blind, before and after)", "",
         "Each folder under `cases/` holds `hang.py` (hangs every time, prints `ready` when the wait is in place),",
         "`control.py` (the same program with the fix or the fixed release: it completes), `lookalike.py`",
         "(same shape, healthy: completes by itself in ~16 s), `case.json` (the interpreter of each program: a",
         "pinned CPython under /root/.pyenv or a venv under `venvs/NAME` with the pinned package) and `CASE.md`",
         "(source, pins, the expected wait-for chain and how it ends).", "",
         "- `check.py`: quick self-check of the programs (hang stays hung, the others end).",
         "- `measure.py --code SRC`: runs gvlstress (`inspect --tree` and `watch --stall 3 --on-hang kill`) on every",
         "  program; writes `results.json` and raw outputs under `runs/`.",
         "- `tools/report.py results*.json`: merges stage files into `results.json`, dumps a review text;",
         "  `tools/scores.py`: the hand scoring of 'named to its end'; `tools/write_before.py`: writes `before.md`.",
         "- Venvs: `venvs/` (re-create with the pins listed in each CASE.md if missing).", "",
         "| case | library@version | source | mechanism | expected end |", "|---|---|---|---|---|"]
for n, c in CASES.items():
    cfg = json.loads((ROOT / "cases" / n / "case.json").read_text())
    src = c["source"].split(" ")[0]
    lines.append(f"| {n} | {c['pins'].split('; control')[0]} | {src} | {c['mechanism']} | {kind(c['end'])} |")
(ROOT / "README.md").write_text("\n".join(lines) + "\n")
print("\n".join(lines[-len(CASES):]))
