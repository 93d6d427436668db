"""Write before.md from results.json and tools/scores.py."""
import json, re, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from scores import SCORES
from casedata import CASES

ROOT = Path(__file__).resolve().parent.parent
d = json.loads((ROOT / "results.json").read_text())
cases = d["cases"]

def verdict(step):
    hl = [h for h in (step.get("headlines") or []) if h["kind"] in ("deadlock", "livelock")] or (step.get("headlines") or [])
    if hl:
        h = hl[0]
        return h["kind"] + (f" ({h['pattern']})" if h["pattern"] else "")
    err = (step.get("stderr") or "")
    if "while it was being inspected" in err or "exited while it was looked at" in json.dumps(step.get("quiet_spells", "")):
        return "process ended during the look"
    if step.get("error"):
        return step["error"]
    return f"rc={step.get('rc')}"

def wverdict(step):
    err = step.get("stderr") or ""
    hl = [l for l in err.splitlines() if l.startswith("hang after")]
    if hl:
        m = re.search(r": (deadlock|livelock)(?: \((.*)\))?\s*$", hl[-1])
        v = m.group(1) + (f" ({m.group(2)})" if m.group(2) else "") if m else hl[-1]
        return v + (" + internal error (exit 70)" if step.get("rc") == 70 else "")
    if step.get("error"):
        return "no hang reported (" + step["error"] + ")"
    if step.get("json"):
        q = json.loads(Path(step["json"]).read_text()).get("quiet") or []
        seen = []
        for x in q:
            v = "ended during a look" if "exited while it was looked at" in x.get("summary", "") else x.get("verdict", "?")
            if v not in seen:
                seen.append(v)
        if seen:
            return f"no hang (job exit {step.get('rc')}; quiet spells: {', '.join(seen)})"
    return f"no hang (job exit {step.get('rc')})"

rows = []
tot = dict(N=0, ci=0, cw=0, ce=0, named=0, lf=0, cf=0)
for n, e in cases.items():
    s = e["summary"]
    h = e["hang"]; l = e["lookalike"]; c = e["control"]
    ci, cw = bool(h["inspect"].get("flagged")), bool(h["watch"].get("flagged"))
    named, why = SCORES.get(n, (None, "(not scored)"))
    lf = bool(l["inspect"].get("flagged")) or bool(l["watch"].get("flagged"))
    cf = bool(c["inspect"].get("flagged")) or bool(c["watch"].get("flagged"))
    tot["N"] += 1; tot["ci"] += ci; tot["cw"] += cw; tot["ce"] += (ci or cw); tot["named"] += bool(named); tot["lf"] += lf; tot["cf"] += cf
    rows.append((n, ci, cw, verdict(h["inspect"]), wverdict(h["watch"]), named, why, lf, verdict(l["inspect"]), wverdict(l["watch"]), cf))

out = []
out.append("# gvlstress on the blind corpus of real hangs: before\n")
out.append(f"Code measured: `{d.get('code')}` (the old checkout), runner gvlstress from /work/venv. Runs: {', '.join(x for x in d.get('runs_dirs', []) if x)}.\n")
out.append("Re-run: `cd /work/blind-hangs && /work/venv/bin/python measure.py --code /work/before/src` (writes results.json, raw outputs under runs/).\n")
out.append("## Figures\n")
N = tot["N"]
out.append(f"- cases: **{N}** (each: hang, control, look-alike; CASE.md has the source and the expected end)")
out.append(f"- caught (a hang verdict: exit 1, deadlock/livelock): inspect --tree **{tot['ci']}/{N}**, watch **{tot['cw']}/{N}**, either **{tot['ce']}/{N}**")
out.append(f"- named to its end (strict, judged by hand against CASE.md; reasons below): **{tot['named']}/{N}**")
out.append(f"- look-alikes flagged (inspect or watch): **{tot['lf']}/{N}**")
out.append(f"- controls flagged: **{tot['cf']}/{N}**\n")
out.append("## Per case\n")
out.append("| case | caught inspect | caught watch | hang verdict (inspect) | hang verdict (watch) | named to its end | look-alike flagged | look-alike verdict (inspect / watch) | control flagged |")
out.append("|---|---|---|---|---|---|---|---|---|")
for r in rows:
    n, ci, cw, vi, vw, named, why, lf, lvi, lvw, cf = r
    nm = "yes" if named else ("no" if named is False else "-")
    out.append(f"| {n} | {'yes' if ci else 'no'} | {'yes' if cw else 'no'} | {vi} | {vw} | {nm} | {'**yes**' if lf else 'no'} | {lvi} / {lvw} | {'**yes**' if cf else 'no'} |")
out.append("\n## Why each was scored so\n")
for r in rows:
    out.append(f"- **{r[0]}** (expected end: {CASES.get(r[0], {}).get('end', '?')}): {r[6]}")
same = [(n, st) for n, st in d["totals"]["same_words"] if n != "26_sysv_semaphore_holder_killed"]
out.append("\n## Hang and look-alike read the same words\n")
out.append("The verdict line of the hang and of its look-alike are identical once pids, fds, inodes, numbers and paths are masked (`tools/report.py`, function `norm`):\n")
for n, st in same:
    hv = cases[n]["hang"]["inspect"].get("headlines") or [{}]
    out.append(f"- **{n}** ({', '.join(st)}): `{hv[0].get('line', '')[:200]}`")
out.append(f"\n{len(same)} pairs. (26_sysv_semaphore_holder_killed also matched in watch, but only on 'the job exited while it was looked at', which is not a verdict: left out.)")
out.append("\n## Other observations\n")
out.append("- **The look ended two hangs** (06 pexpect, 26 sysv_ipc): stopping a thread blocked in a pty write (06) or in `semop` (26) to read its stacks interrupts the syscall; the pexpect child then ran to completion (exit 0) and sysv_ipc raised `Signaled while waiting` (exit 1). Both reproduced by hand with `py-spy dump`. The look-alike of 26 was killed the same way (exit 1).")
out.append("- **watch crashed** on the look-alike of 28 (`IndexError: tuple index out of range` in the markdown reporter, exit 70) right after it declared `pid N: deadlock (waits for a peer that has gone)` for the healthy `cat` child at its second look (the feeder thread of the parent was going to write 16 s later); counted as a flagged look-alike.")
out.append("- **inspect and watch disagree** on 08: inspect says idle (the process catches SIGUSR1), watch says unrecognised deadlock.")
out.append("- watch missed 11 hangs: 9 of them it kept watching with no report until the runner stopped it at 150 s (05, 13, 16, 17, 18, 22, 24, 28, 30); 2 ended during its look (06, 26). inspect missed 12 (the same, plus 08).")
out.append("- Controls: none flagged; most ended before the look started (inspect: zombie / gone, exit 2) - they are measured as healthy by finishing.")
out.append("- The host was heavily loaded during the runs (load average 13-20 on 2 cores, other sessions' gvlstress runs); inspect took 3-11 s per tree.")
(ROOT / "before.md").write_text("\n".join(out) + "\n")
print("\n".join(out[:12]))
