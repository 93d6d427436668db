"""Write before.md or after.md from a merged results file and the hand scores.

    python3 tools/write_md.py before   # results-before.json + tools/scores_before.py -> before.md
    python3 tools/write_md.py after    # results-after.json + tools/scores_after.py (+ before verdicts) -> after.md
"""
import importlib, json, re, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from casedata import CASES

ROOT = Path(__file__).resolve().parent.parent
phase = sys.argv[1]
d = json.loads((ROOT / f"results-{phase}.json").read_text())
SC = importlib.import_module(f"scores_{phase}")
SCORES, NOTES, HEADER = SC.SCORES, getattr(SC, "NOTES", []), getattr(SC, "HEADER", [])
before = json.loads((ROOT / "results-before.json").read_text()) if phase == "after" else None
before_scores = importlib.import_module("scores_before").SCORES if phase == "after" else None
cases = d["cases"]

def verdict(step):
    hl = [h for h in (step.get("headlines") or []) if h["kind"] in ("deadlock", "livelock")] or (step.get("headlines") or [])
    if hl:
        h = hl[0]
        return h["kind"] + (f" ({h['pattern']})" if h["pattern"] else "")
    if step.get("error"):
        return step["error"]
    return f"rc={step.get('rc')}"

def wverdict(step):
    err = step.get("stderr") or ""
    hl = [l for l in err.splitlines() if "hang after" in l]
    if hl:
        m = re.search(r": (deadlock|livelock)(?: \((.*)\))?\s*$", hl[-1])
        v = m.group(1) + (f" ({m.group(2)})" if m.group(2) else "") if m else hl[-1]
        return v + (" + internal error (exit 70)" if step.get("rc") == 70 else "")
    if step.get("error"):
        return "no hang reported (" + step["error"] + ")"
    if step.get("json"):
        try:
            q = json.loads(Path(step["json"]).read_text()).get("quiet") or []
        except OSError:
            q = []
        seen = []
        for x in q:
            v = "ended during a look" if "exited while it was looked at" in x.get("summary", "") else x.get("verdict", "?")
            if v not in seen:
                seen.append(v)
        if seen:
            return f"no hang (job exit {step.get('rc')}; quiet spells: {', '.join(seen)})"
    return f"no hang (job exit {step.get('rc')})"

def headline(step):
    hl = [h for h in (step.get("headlines") or []) if h["kind"] in ("deadlock", "livelock")] or (step.get("headlines") or [])
    return hl[0]["line"] if hl else ""

rows = []
tot = dict(N=0, ci=0, cw=0, ce=0, named=0, lf=0, cf=0)
for n, e in cases.items():
    h, l, c = e["hang"], e["lookalike"], e["control"]
    ci, cw = bool(h["inspect"].get("flagged")), bool(h.get("watch", {}).get("flagged"))
    named, why = SCORES.get(n, (None, "(not scored)"))
    lf = bool(l["inspect"].get("flagged")) or bool(l.get("watch", {}).get("flagged"))
    cf = bool(c["inspect"].get("flagged")) or bool(c.get("watch", {}).get("flagged"))
    tot["N"] += 1; tot["ci"] += ci; tot["cw"] += cw; tot["ce"] += (ci or cw); tot["named"] += bool(named)
    tot["lf"] += lf; tot["cf"] += cf
    row = dict(n=n, ci=ci, cw=cw, vi=verdict(h["inspect"]), vw=wverdict(h["watch"]) if "watch" in h else "-",
               named=named, why=why, lf=lf, lvi=verdict(l["inspect"]), lvw=wverdict(l["watch"]) if "watch" in l else "-", cf=cf)
    if before is not None and n in before["cases"]:
        bh = before["cases"][n]["hang"]
        bn = before_scores.get(n, (None, ""))[0]
        row["before"] = f"{verdict(bh['inspect'])} / {wverdict(bh['watch'])}; named: {'yes' if bn else ('no' if bn is False else '-')}"
    rows.append(row)

same = d.get("totals", {}).get("same_words", [])
out = [f"# gvlstress on the second blind corpus of real hangs: {phase}\n"]
out.append(f"Code measured: `{d.get('code')}`; runner /work/venv/bin/python (`python -m gvlstress`, PYTHONPATH set to that src by measure.py; the programs themselves run without it). Runs: {', '.join(x for x in d.get('runs_dirs', []) if x)}.\n")
out += HEADER
out.append("## Figures\n")
N = tot["N"]
out.append(f"- cases: **{N}** (each: hang, control, look-alike; CASE.md has the source and the expected end)")
out.append(f"- caught (a hang verdict: exit 1, deadlock/livelock): inspect --tree **{tot['ci']}/{N}**, watch **{tot['cw']}/{N}**, either **{tot['ce']}/{N}**")
out.append(f"- named to its end (strict, judged by hand against CASE.md; reasons below): **{tot['named']}/{N}**")
out.append(f"- look-alikes flagged (inspect or watch): **{tot['lf']}/{N}**")
out.append(f"- controls flagged: **{tot['cf']}/{N}**")
out.append(f"- hang/look-alike pairs described in the same words (headline identical once pids, numbers, fds and paths are masked): **{len(same)}/{N}**" + (" (" + ", ".join(f"{a} [{'/'.join(b)}]" for a, b in same) + ")" if same else "") + "\n")
out.append("## Per case\n")
hdr = "| case | expected end | caught inspect | caught watch | hang verdict (inspect) | hang verdict (watch) | named to its end | look-alike flagged | look-alike verdict (inspect / watch) | control flagged |"
if before is not None:
    hdr += " before (inspect / watch; named) |"
out.append(hdr)
out.append("|" + "---|" * (hdr.count("|") - 1))
def kind(end):
    e = end.lower()
    for k in ("cycle", "self-wait", "dead/gone party", "a party that itself waits forever", "nobody in the tree can end it", "an outside party may still end it"):
        if e.startswith(k):
            return k
    return e.split(":")[0]
for r in rows:
    nm = "yes" if r["named"] else ("no" if r["named"] is False else "-")
    line = (f"| {r['n']} | {kind(CASES[r['n']]['end'])} | {'yes' if r['ci'] else 'no'} | {'yes' if r['cw'] else 'no'} | {r['vi']} | {r['vw']} | {nm} | "
            f"{'**yes**' if r['lf'] else 'no'} | {r['lvi']} / {r['lvw']} | {'**yes**' if r['cf'] else 'no'} |")
    if before is not None:
        line += f" {r.get('before', '-')} |"
    out.append(line)
out.append("\n## Why each was scored so (named to its end)\n")
for r in rows:
    out.append(f"- **{r['n']}** (expected: {CASES[r['n']]['end']}): {r['why']}")
out.append("\n## Hang and look-alike read the same words\n")
if same:
    for n, st in same:
        out.append(f"- **{n}** ({', '.join(st)}): `{headline(cases[n]['hang']['inspect'])[:220]}`")
else:
    out.append("- none")
if NOTES:
    out.append("\n## Other observations\n")
    out += NOTES
(ROOT / f"{phase}.md").write_text("\n".join(out) + "\n")
print("\n".join(out[:14]))
