#!/usr/bin/env python3
"""Per expected end: cases, caught (inspect/watch/either; for outside cases: correctly left unflagged), named."""
import json, sys
from collections import defaultdict
d = json.load(open(sys.argv[1]))
agg = defaultdict(lambda: defaultdict(int))
for r in d["scores"]["rows"]:
    a = agg[r["expected"]]
    a["n"] += 1
    a["inspect"] += r["correct_inspect"]
    a["watch"] += r["correct_watch"]
    a["either"] += r["correct_either"]
    a["named"] += r["named"]
for k, a in agg.items():
    what = "left unflagged" if k == "may still end from outside" else "caught"
    print(f"{k}: {a['n']} cases; {what} inspect {a['inspect']}/{a['n']}, watch {a['watch']}/{a['n']}, either {a['either']}/{a['n']}; named {a['named']}/{a['n']}")
