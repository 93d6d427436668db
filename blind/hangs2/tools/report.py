"""Merge measurement files into results.json and dump what a reviewer needs to score each case.

    python3 tools/report.py results-stage1.json results-stage2.json ... > review.txt
"""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

def norm(line: str) -> str:
    s = re.sub(r"pid \d+", "pid N", line)
    s = re.sub(r"0x[0-9a-f]+", "ADDR", s)
    s = re.sub(r"\d+(\.\d+)?", "N", s)
    s = re.sub(r"/[^\s:()]+", "PATH", s)
    return s.strip()

def main_line(step):
    hl = step.get("headlines") or []
    if not hl and step.get("json") and step.get("step") == "watch":
        try:
            q = json.loads(Path(step["json"]).read_text()).get("quiet") or []
        except OSError:
            q = []
        if q:
            return "quiet spell: " + q[0].get("summary", "")
    return hl[0]["line"] if hl else f"(no verdict line; rc={step.get('rc')}; {step.get('error','')}{(step.get('stderr') or '').strip()[-200:]})"

merged = {"cases": {}}
for f in sys.argv[1:]:
    d = json.loads(Path(f).read_text())
    merged["code"] = d.get("code")
    merged.setdefault("runs_dirs", []).append(d.get("runs_dir"))
    merged["cases"].update(d["cases"])
merged["cases"] = dict(sorted(merged["cases"].items()))
N = len(merged["cases"])
tot = dict(N=N, caught_inspect=0, caught_watch=0, caught_either=0, controls_flagged=0, lookalikes_flagged=0, same_words=[])
def watch_flag(st):
    err = st.get("stderr") or ""
    said = any("hang after" in l and (": deadlock" in l or ": livelock" in l) for l in err.splitlines())
    return bool(st.get("flagged")) or said

for n, e in merged["cases"].items():
    s = e["summary"]
    for prog in ("hang", "control", "lookalike"):
        if "watch" in e[prog]:
            e[prog]["watch"]["flagged"] = watch_flag(e[prog]["watch"])
            e[prog]["watch"]["internal_error"] = e[prog]["watch"].get("rc") == 70
    s["caught_watch"] = e["hang"]["watch"]["flagged"]
    s["control_flagged"] = bool(e["control"]["inspect"].get("flagged")) or e["control"]["watch"]["flagged"]
    s["lookalike_flagged"] = bool(e["lookalike"]["inspect"].get("flagged")) or e["lookalike"]["watch"]["flagged"]
    tot["caught_inspect"] += s["caught_inspect"]; tot["caught_watch"] += s["caught_watch"]
    tot["caught_either"] += s["caught_inspect"] or s["caught_watch"]
    tot["controls_flagged"] += s["control_flagged"]; tot["lookalikes_flagged"] += s["lookalike_flagged"]
    h, l = e["hang"], e["lookalike"]
    same = []
    for step in ("inspect", "watch"):
        if step in h and step in l:
            a, b = norm(main_line(h[step])), norm(main_line(l[step]))
            if not a.startswith("(no verdict") and a == b:
                same.append(step)
    s["same_words_with_lookalike"] = same
    if same:
        tot["same_words"].append((n, same))
    print("=" * 100)
    print(n)
    for prog in ("hang", "lookalike", "control"):
        for step in ("inspect", "watch"):
            st = e[prog].get(step, {})
            flag = "FLAGGED" if st.get("flagged") else "ok"
            print(f"  [{prog}/{step}] rc={st.get('rc')} {flag} {st.get('seconds')}s")
            if prog == "hang":
                text = st.get("stdout", "") if step == "inspect" else st.get("stderr", "")
                lines = [l for l in text.splitlines() if l.strip()]
                for l in lines[:40]:
                    print("     | " + l[:300])
            else:
                for hl in (st.get("headlines") or [])[:3]:
                    print("     > " + hl["line"][:300])
                if not st.get("headlines"):
                    print("     > " + main_line(st)[:300])
                if step == "inspect" and prog == "lookalike":
                    for l in [x for x in (st.get("stdout") or "").splitlines() if x.strip()][1:6]:
                        print("       " + l[:250])
    if same:
        print("  SAME WORDS hang vs look-alike in:", same)
merged["totals"] = tot
import os
(ROOT / os.environ.get("MERGED", "results.json")).write_text(json.dumps(merged, indent=1))
print()
print(json.dumps({k: v for k, v in tot.items()}, indent=1))
