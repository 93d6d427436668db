#!/usr/bin/env python3
"""Fix-up for stage files measured with a relative --runs: measure.py passes `--report-dir runs/...` to
`gvlstress watch`, which runs with cwd = the case folder, so watch reports landed under cases/NAME/runs/...
while measure.py looked for them under ./runs/... (and its stderr fallback looks for lines starting with
"hang after", which this gvlstress prefixes with "gvlstress watch: "). This script moves those report trees
to ./runs/..., then re-derives each watch step's `json`, `hang`, `quiet_spells` and `flagged` with measure.py's
own rule ((rc == 1 and watch.json has a hang) or the original said_hang), and the per-case summary.
Run from the corpus directory:  python3 tools/fix_watch_paths.py results-s1.json ..."""
import glob, json, shutil, sys
from pathlib import Path

HERE = Path.cwd()
for d in sorted(glob.glob("cases/*/runs/*")):
    src = Path(d)
    dst = HERE / "runs" / src.name
    for case_dir in src.iterdir():
        for prog_dir in case_dir.iterdir():
            for wdir in (prog_dir / "watch").glob("*"):
                target = dst / case_dir.name / prog_dir.name / "watch" / wdir.name
                target.parent.mkdir(parents=True, exist_ok=True)
                if not target.exists():
                    shutil.move(str(wdir), str(target))
    shutil.rmtree(src.parent)

for f in sys.argv[1:]:
    res = json.loads(Path(f).read_text())
    runs_dir = Path(res["runs_dir"])
    for name, entry in res["cases"].items():
        for prog in ("hang", "control", "lookalike"):
            w = entry[prog].get("watch")
            if not w:
                continue
            js = sorted(glob.glob(str(runs_dir / name / prog / "watch" / "*" / "watch.json")))
            said_hang = any(l.startswith("hang after") and (": deadlock" in l or ": livelock" in l)
                            for l in (w.get("stderr") or "").splitlines())
            hang = None
            if js:
                d = json.loads(Path(js[-1]).read_text())
                w["json"] = js[-1]
                hang = d.get("hang")
                w["hang"] = hang
                w["quiet_spells"] = len(d.get("quiet") or d.get("quiet_spells") or [])
            w["flagged"] = (w.get("rc") == 1 and hang is not None) or said_hang
            w["fixed_up"] = "watch report moved from the case folder; flagged re-derived (tools/fix_watch_paths.py)"
        h = entry["hang"]
        s = entry["summary"]
        s["caught_watch"] = bool(h.get("watch", {}).get("flagged"))
        s["control_flagged"] = bool(entry["control"]["inspect"].get("flagged")) or bool(entry["control"].get("watch", {}).get("flagged"))
        s["lookalike_flagged"] = bool(entry["lookalike"]["inspect"].get("flagged")) or bool(entry["lookalike"].get("watch", {}).get("flagged"))
    Path(f).write_text(json.dumps(res, indent=1))
    print(f, "fixed")
