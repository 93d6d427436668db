"""Render cases/*/CASE.md from tools/casedata.py (run with any python3)."""
import json, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from casedata import CASES

root = Path(__file__).resolve().parent.parent / "cases"
for name, c in CASES.items():
    d = root / name
    cfg = json.loads((d / "case.json").read_text())
    lines = [f"# {name}: {c['title']}", "",
             f"**Source:** {c['source']}", "",
             f"**Pinned:** {c['pins']}", "",
             "**Interpreters (case.json):** " + ", ".join(f"`{k}` = `{v}`" for k, v in cfg.items()), "",
             f"**Mechanism:** {c['mechanism']}", "",
             "## Expected explanation (wait-for chain)", ""]
    lines += [f"{i}. {s}" for i, s in enumerate(c["chain"], 1)]
    lines += ["", f"**How the chain ends:** {c['end']}", "",
              "## Control and look-alike", "",
              "- `control.py`: the same program with the fix or the fixed release (see Pinned); it completes.",
              f"- `lookalike.py`: {c['lookalike']}; it completes by itself.",
              "- Every program prints `ready` when its wait (or its shape) is in place; `hang.py` stays hung until killed.", ""]
    (d / "CASE.md").write_text("\n".join(lines))
print(len(CASES), "CASE.md written")
