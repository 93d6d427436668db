#!/usr/bin/env python3
"""Score gvlstress on this corpus from measure.py stage files (run from the corpus directory).

    python3 tools/score.py results-s1.json results-s2.json ... [--merged results.json] [--md before.md --title T]

Per case (expected end from case.json "end"):
- caught (inspect / watch / either): the hang flagged (measure.py's `flagged`: exit 1 with a deadlock or
  livelock verdict). For "may still end from outside" cases the correct outcome is NOT flagged.
- named to its end: caught, and the wait-for chain end (`diagnosis.waitfor.end`) of a flagged process in
  inspect.json or watch.json equals the case's end. For outside cases: not flagged and a process's chain
  end is "may still end from outside".
- look-alike flagged, control flagged (inspect or watch).
- same words: the hang's and the look-alike's headline (inspect, root process; watch when both have one)
  identical once pids, numbers, hex addresses, fds and paths are masked.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path.cwd()
OUTSIDE = "may still end from outside"


def merge(files: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"cases": {}, "stages": []}
    for f in files:
        d = json.loads(Path(f).read_text())
        out["stages"].append({"file": f, "code": d.get("code"), "started": d.get("started"), "runs_dir": d.get("runs_dir")})
        out["cases"].update(d["cases"])
    out["cases"] = dict(sorted(out["cases"].items()))
    return out


def processes(step: dict[str, Any]) -> list[dict[str, Any]]:
    js = step.get("json")
    if not js or not Path(js).exists():
        return []
    d = json.loads(Path(js).read_text())
    if step.get("step") == "watch":
        hang = d.get("hang") or {}
        return list(hang.get("processes") or [])
    return list(d.get("processes") or [])


def ends_of(step: dict[str, Any], flagged_only: bool) -> list[str]:
    out = []
    for p in processes(step):
        dg = p.get("diagnosis") or {}
        if flagged_only and dg.get("verdict") not in ("deadlock", "livelock"):
            continue
        end = (dg.get("waitfor") or {}).get("end")
        if end:
            out.append(end)
    return out


MASKS = [
    (re.compile(r"/[^\s,;:)\]]+"), "<path>"),
    (re.compile(r"0x[0-9a-fA-F]+"), "<addr>"),
    (re.compile(r"\bfd \d+"), "fd <n>"),
    (re.compile(r"\d+(\.\d+)?"), "<n>"),
]


def norm(line: str) -> str:
    for rx, rep in MASKS:
        line = rx.sub(rep, line)
    return line.strip()


def root_headline(step: dict[str, Any]) -> str | None:
    hl = step.get("headlines") or []
    return norm(hl[0]["line"]) if hl else None


def verdict(step: dict[str, Any]) -> str:
    hl = [h for h in step.get("headlines", []) if h["kind"] in ("deadlock", "livelock")] or step.get("headlines", [])
    if not hl:
        return f"rc={step.get('rc')}" + (f" ({step['error']})" if step.get("error") else "")
    h = hl[0]
    return h["kind"] + (f" ({h['pattern']})" if h.get("pattern") else "")


def score(merged: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rows = []
    for name, e in merged["cases"].items():
        cfg = json.loads((HERE / "cases" / name / "case.json").read_text())
        expected = cfg["end"]
        h, look, ctl = e["hang"], e["lookalike"], e["control"]
        fi = bool(h["inspect"].get("flagged"))
        fw = bool(h.get("watch", {}).get("flagged"))
        outside = expected == OUTSIDE
        ends_i = ends_of(h["inspect"], flagged_only=not outside)
        ends_w = ends_of(h.get("watch", {}), flagged_only=not outside)
        if outside:
            named_i = not fi and OUTSIDE in ends_i
            named_w = not fw and not fi and OUTSIDE in ends_i  # watch writes no diagnosis when it keeps watching
            named = not (fi or fw) and OUTSIDE in ends_i
        else:
            named_i = fi and expected in ends_i
            named_w = fw and expected in ends_w
            named = named_i or named_w
        hh_i, lh_i = root_headline(h["inspect"]), root_headline(look["inspect"])
        hh_w, lh_w = root_headline(h.get("watch", {})), root_headline(look.get("watch", {}))
        same = []
        if hh_i and lh_i and hh_i == lh_i:
            same.append("inspect")
        if hh_w and lh_w and hh_w == lh_w:
            same.append("watch")
        rows.append({
            "case": name, "expected": expected, "outside": outside,
            "flag_inspect": fi, "flag_watch": fw,
            "correct_inspect": (not fi) if outside else fi, "correct_watch": (not fw) if outside else fw,
            "correct_either": (not (fi or fw)) if outside else (fi or fw),
            "named": named, "named_inspect": named_i, "named_watch": named_w,
            "ends_inspect": sorted(set(ends_i)), "ends_watch": sorted(set(ends_w)),
            "verdict_inspect": verdict(h["inspect"]), "verdict_watch": verdict(h.get("watch", {})),
            "look_flagged": bool(look["inspect"].get("flagged")) or bool(look.get("watch", {}).get("flagged")),
            "look_verdict": verdict(look["inspect"]) + " / " + verdict(look.get("watch", {})),
            "ctl_flagged": bool(ctl["inspect"].get("flagged")) or bool(ctl.get("watch", {}).get("flagged")),
            "same_words": same,
            "watch_seconds": h.get("watch", {}).get("seconds"),
        })
    N = len(rows)
    hangs = [r for r in rows if not r["outside"]]
    outs = [r for r in rows if r["outside"]]
    tot = {
        "N": N, "hangs": len(hangs), "outside": len(outs),
        "caught_inspect": sum(r["flag_inspect"] for r in hangs),
        "caught_watch": sum(r["flag_watch"] for r in hangs),
        "caught_either": sum(r["flag_inspect"] or r["flag_watch"] for r in hangs),
        "outside_not_flagged": sum(r["correct_either"] for r in outs),
        "correct_inspect": sum(r["correct_inspect"] for r in rows),
        "correct_watch": sum(r["correct_watch"] for r in rows),
        "correct_either": sum(r["correct_either"] for r in rows),
        "named": sum(r["named"] for r in rows),
        "named_inspect": sum(r["named_inspect"] for r in rows),
        "named_watch": sum(r["named_watch"] for r in rows),
        "look_flagged": sum(r["look_flagged"] for r in rows),
        "ctl_flagged": sum(r["ctl_flagged"] for r in rows),
        "same_words": sum(bool(r["same_words"]) for r in rows),
    }
    return rows, tot


def yn(b: bool) -> str:
    return "yes" if b else "no"


def write_md(path: str, title: str, merged: dict[str, Any], rows: list[dict[str, Any]], tot: dict[str, Any]) -> None:
    N = tot["N"]
    lines = [f"# {title}", ""]
    for s in merged["stages"]:
        lines.append(f"- stage `{s['file']}`: code `{s['code']}`, started {s['started']}, runs `{s['runs_dir']}`")
    lines += ["", "Scored by `tools/score.py` (definitions in its docstring).", "", "## Figures", "",
              f"- cases: **{N}** ({tot['hangs']} hangs that no one outside can end, {tot['outside']} that may still end from outside)",
              f"- caught (hangs): inspect --tree **{tot['caught_inspect']}/{tot['hangs']}**, watch **{tot['caught_watch']}/{tot['hangs']}**, either **{tot['caught_either']}/{tot['hangs']}**",
              f"- 'may still end from outside' cases left unflagged (correct): **{tot['outside_not_flagged']}/{tot['outside']}**",
              f"- correct over all cases: inspect **{tot['correct_inspect']}/{N}**, watch **{tot['correct_watch']}/{N}**, either **{tot['correct_either']}/{N}**",
              f"- named to its end: **{tot['named']}/{N}** (inspect {tot['named_inspect']}/{N}, watch {tot['named_watch']}/{N})",
              f"- look-alikes flagged: **{tot['look_flagged']}/{N}**",
              f"- controls flagged: **{tot['ctl_flagged']}/{N}**",
              f"- hang/look-alike pairs with the same words: **{tot['same_words']}/{N}**",
              "", "## Per case", "",
              "| case | expected end | caught inspect | caught watch | hang verdict (inspect) | hang verdict (watch) | chain ends reported (inspect / watch) | named to its end | look-alike flagged | look-alike verdict (inspect / watch) | control flagged | same words |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['case']} | {r['expected']} | {yn(r['flag_inspect'])} | {yn(r['flag_watch'])} | {r['verdict_inspect']} | "
                     f"{r['verdict_watch']} | {', '.join(r['ends_inspect']) or '-'} / {', '.join(r['ends_watch']) or '-'} | {yn(r['named'])} | "
                     f"{yn(r['look_flagged'])} | {r['look_verdict']} | {yn(r['ctl_flagged'])} | {', '.join(r['same_words']) or 'no'} |")
    Path(path).write_text("\n".join(lines) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--merged")
    ap.add_argument("--md")
    ap.add_argument("--title", default="gvlstress on the third blind corpus of real hangs")
    a = ap.parse_args()
    merged = merge(a.files)
    rows, tot = score(merged)
    if a.merged:
        merged["scores"] = {"rows": rows, "totals": tot}
        Path(a.merged).write_text(json.dumps(merged, indent=1))
    if a.md:
        write_md(a.md, a.title, merged, rows, tot)
    for r in rows:
        print(f"{r['case'][:44]:44s} {r['expected'][:18]:18s} i={int(r['flag_inspect'])} w={int(r['flag_watch'])} named={int(r['named'])} "
              f"ends={r['ends_inspect']}/{r['ends_watch']} look={int(r['look_flagged'])} ctl={int(r['ctl_flagged'])} same={r['same_words']}")
    print(json.dumps(tot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
