import json, sys, re
from pathlib import Path
d = json.loads(Path(sys.argv[1]).read_text())
names = sys.argv[2:] or list(d["cases"])
KEY = re.compile(r"cycle|holder|died|dead|gone|only|nobody|no worker|never|can still|may still|itself|held by|owner|lost|not among|orphan|peer|no thread|closed|exit|join|waits for|fork|timer|signal")
for n in names:
    e = d["cases"][n]
    print("=" * 90); print(n)
    h = e["hang"]
    for l in (h["inspect"].get("stdout") or "").splitlines():
        if l.startswith("pid "):
            print("  I| " + l[:420])
        elif KEY.search(l) and l.strip().startswith("- ") and "futex 0x" not in l and "busiest" not in l:
            print("  I|     " + l.strip()[:300])
    if not h["inspect"].get("stdout"):
        print("  I| (none) rc=", h["inspect"].get("rc"), (h["inspect"].get("stderr") or "")[-300:], h["inspect"].get("error"))
    w = h.get("watch", {})
    wl = [l for l in (w.get("stderr") or "").splitlines() if "gvlstress watch: hang" in l]
    print("  W| rc=%s %s" % (w.get("rc"), (wl[0][:400] if wl else (w.get("error") or ""))))
    if not wl and w.get("json"):
        q = json.loads(Path(w["json"]).read_text()).get("quiet") or []
        for s in q[:2]:
            print("  W|   quiet:", s.get("summary", "")[:300])
    for prog in ("lookalike", "control"):
        for st in ("inspect", "watch"):
            x = e[prog].get(st, {})
            hl = (x.get("headlines") or [{}])[0].get("line", "")
            if st == "watch" and not hl and x.get("json"):
                q = json.loads(Path(x["json"]).read_text()).get("quiet") or []
                hl = "quiet: " + (q[0].get("summary", "") if q else "(none)")
            print(f"  {prog[0].upper()}{st[0]}| rc={x.get('rc')} {'FLAGGED ' if x.get('flagged') else ''}{hl[:260]}")
