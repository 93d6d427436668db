#!/usr/bin/env python3
"""Measure gvlstress on the blind corpus of real hangs (stdlib + psutil only).

For each case folder under cases/ (hang.py, control.py, lookalike.py, case.json):
  (a) inspect: start the program in its own session, wait for its `ready` line, then run
      `python -m gvlstress inspect --tree PID` and read its inspect.json;
  (b) watch: `python -m gvlstress watch --stall 3 --on-hang kill -- PY prog.py` and read watch.json.
Every process started here (and every descendant or member of its session) is killed by pid
when its step ends. Writes results.json (and raw outputs under runs/) and prints a table.

    /work/venv/bin/python measure.py --code /work/before/src [--cases 01_x 02_y] [--out DIR]
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil

HERE = Path.cwd()
"""The corpus measured: run from its directory (blind/hangs, blind/hangs2), one script for both."""
CASES = HERE / "cases"
RUNNER_PY = "/work/venv/bin/python"
PROGS = ("hang", "control", "lookalike")
HEADLINE = re.compile(r"^(?:gvlstress watch: hang: )?pid (\d+): (\w+)(?: \((.*?)\))?: ?(.*)$")


def session_members(sid: int) -> list[int]:
    out = []
    for p in psutil.process_iter(["pid"]):
        try:
            if os.getsid(p.pid) == sid:
                out.append(p.pid)
        except (ProcessLookupError, PermissionError, OSError):
            pass
    return out


def kill_all(root: int, known: set[int]) -> None:
    """SIGKILL root, its descendants, every process of its session, and every pid seen before."""
    pids = set(known) | {root}
    try:
        pids |= {c.pid for c in psutil.Process(root).children(recursive=True)}
    except psutil.Error:
        pass
    pids |= set(session_members(root))
    for pid in pids:
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.killpg(root, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def tree_pids(root: int) -> set[int]:
    try:
        return {root} | {c.pid for c in psutil.Process(root).children(recursive=True)}
    except psutil.Error:
        return {root}


def read_until_ready(p: subprocess.Popen[bytes], deadline: float) -> tuple[bool, list[str]]:
    assert p.stdout is not None
    fd = p.stdout.fileno()
    buf = b""
    lines: list[str] = []
    while time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            chunk = os.read(fd, 65536)
            if not chunk:
                return False, lines
            buf += chunk
            *done, buf = buf.split(b"\n")
            for l in done:
                lines.append(l.decode(errors="replace"))
                if l.strip() == b"ready":
                    return True, lines
        elif p.poll() is not None:
            return False, lines
    return False, lines


def parse_headlines(text: str) -> list[dict[str, Any]]:
    out = []
    for line in text.splitlines():
        m = HEADLINE.match(line.strip())
        if m:
            out.append({"pid": int(m.group(1)), "kind": m.group(2), "pattern": m.group(3),
                        "reason": m.group(4), "line": line.strip()})
    return out


def gv_env(code: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = code
    env.pop("PYTHONHASHSEED", None)
    return env


def run_inspect(case: Path, prog: str, py: str, code: str, outdir: Path) -> dict[str, Any]:
    outdir.mkdir(parents=True, exist_ok=True)
    res: dict[str, Any] = {"step": "inspect"}
    p = subprocess.Popen([py, f"{prog}.py"], cwd=case, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    seen: set[int] = {p.pid}
    try:
        ok, lines = read_until_ready(p, time.time() + 40)
        res["ready"] = ok
        res["program_output"] = lines[-5:]
        if not ok:
            res["error"] = "no ready line"
            return res
        time.sleep(1.0)  # let the wait the program announced begin
        seen |= tree_pids(p.pid)
        t0 = time.time()
        g = subprocess.run([RUNNER_PY, "-m", "gvlstress", "inspect", "--tree", "--report-dir", str(outdir), str(p.pid)],
                           env=gv_env(code), capture_output=True, text=True, timeout=180, start_new_session=True,
                           stdin=subprocess.DEVNULL)
        seen |= tree_pids(p.pid)
        res["seconds"] = round(time.time() - t0, 1)
        res["rc"] = g.returncode
        res["stdout"] = g.stdout
        res["stderr"] = g.stderr[-2000:]
        (outdir / "stdout.txt").write_text(g.stdout + "\n--- stderr ---\n" + g.stderr)
        res["headlines"] = parse_headlines(g.stdout)
        js = sorted(glob.glob(str(outdir / "*" / "inspect.json")))
        if js:
            d = json.loads(Path(js[-1]).read_text())
            res["json"] = js[-1]
            res["findings"] = [{"pid": pr.get("pid"), "kind": (pr.get("finding") or {}).get("kind"),
                                "pattern": (pr.get("finding") or {}).get("pattern"),
                                "reason": (pr.get("finding") or {}).get("reason")}
                               for pr in d.get("processes", [])]
        res["flagged"] = g.returncode == 1
        if prog != "hang":
            try:
                p.wait(timeout=60)
                res["program_rc"] = p.returncode
            except subprocess.TimeoutExpired:
                res["program_rc"] = "did not end in 60 s"
    except subprocess.TimeoutExpired:
        res["error"] = "inspect timed out"
    finally:
        kill_all(p.pid, seen)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
    return res


def run_watch(case: Path, prog: str, py: str, code: str, outdir: Path) -> dict[str, Any]:
    outdir.mkdir(parents=True, exist_ok=True)
    res: dict[str, Any] = {"step": "watch"}
    cmd = [RUNNER_PY, "-m", "gvlstress", "watch", "--stall", "3", "--on-hang", "kill", "--report-dir", str(outdir),
           "--", "env", "-u", "PYTHONPATH", py, f"{prog}.py"]
    t0 = time.time()
    w = subprocess.Popen(cmd, cwd=case, env=gv_env(code), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, start_new_session=True, text=True)
    seen: set[int] = {w.pid}
    try:
        try:
            out, err = w.communicate(timeout=150)
        except subprocess.TimeoutExpired:
            seen |= tree_pids(w.pid)
            kill_all(w.pid, seen)
            out, err = w.communicate(timeout=10)
            res["error"] = "watch did not end in 150 s"
        res["seconds"] = round(time.time() - t0, 1)
        res["rc"] = w.returncode
        res["stdout"] = out[-3000:]
        res["stderr"] = err[-6000:]
        (outdir / "output.txt").write_text(out + "\n--- stderr ---\n" + err)
        res["headlines"] = parse_headlines(err)
        js = sorted(glob.glob(str(outdir / "*" / "watch.json")))
        hang = None
        if js:
            d = json.loads(Path(js[-1]).read_text())
            res["json"] = js[-1]
            hang = d.get("hang")
            res["hang"] = hang
            res["quiet_spells"] = len(d.get("quiet") or d.get("quiet_spells") or [])
        said_hang = any(l.startswith("hang after") and (": deadlock" in l or ": livelock" in l) for l in err.splitlines())
        res["internal_error"] = w.returncode == 70
        # a hang verdict: exit 1 with a hang in watch.json, or a "hang after" line (also when watch then crashed)
        res["flagged"] = (w.returncode == 1 and hang is not None) or said_hang
    finally:
        kill_all(w.pid, seen)
    return res


def verdict_of(step: dict[str, Any]) -> str:
    hl = [h for h in step.get("headlines", []) if h["kind"] in ("deadlock", "livelock")]
    if not hl:
        hl = step.get("headlines", [])
    if not hl:
        return f"rc={step.get('rc')} {step.get('error', '')}".strip()
    h = hl[0]
    return f"{h['kind']}" + (f" ({h['pattern']})" if h["pattern"] else "")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--code", required=True, help="gvlstress src dir put on PYTHONPATH")
    ap.add_argument("--cases", nargs="*", help="case folder names (default: all)")
    ap.add_argument("--out", default=str(HERE / "results.json"))
    ap.add_argument("--runs", default=str(HERE / "runs"))
    ap.add_argument("--skip-watch", action="store_true")
    a = ap.parse_args()
    names = a.cases or sorted(d.name for d in CASES.iterdir() if d.is_dir() and (d / "hang.py").exists())
    runs = Path(a.runs) / time.strftime("%Y%m%dT%H%M%S")
    results: dict[str, Any] = {"code": a.code, "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                               "runs_dir": str(runs), "cases": {}}
    out_path = Path(a.out)
    for n in names:
        case = CASES / n
        cfg = json.loads((case / "case.json").read_text())
        entry: dict[str, Any] = {}
        for prog in PROGS:
            py = cfg.get(f"{prog}_python", cfg["python"])
            e: dict[str, Any] = {"python": py}
            e["inspect"] = run_inspect(case, prog, py, a.code, runs / n / prog / "inspect")
            if not a.skip_watch:
                e["watch"] = run_watch(case, prog, py, a.code, runs / n / prog / "watch")
            entry[prog] = e
            print(f"{n:44s} {prog:9s} inspect: {verdict_of(e['inspect']):60.60s} "
                  + (f"watch: {verdict_of(e['watch'])}" if "watch" in e else ""), flush=True)
        h = entry["hang"]
        entry["summary"] = {
            "caught_inspect": bool(h["inspect"].get("flagged")),
            "caught_watch": bool(h.get("watch", {}).get("flagged")),
            "hang_verdict_inspect": verdict_of(h["inspect"]),
            "hang_verdict_watch": verdict_of(h["watch"]) if "watch" in h else None,
            "control_flagged": bool(entry["control"]["inspect"].get("flagged")) or bool(entry["control"].get("watch", {}).get("flagged")),
            "lookalike_flagged": bool(entry["lookalike"]["inspect"].get("flagged")) or bool(entry["lookalike"].get("watch", {}).get("flagged")),
            "lookalike_verdict_inspect": verdict_of(entry["lookalike"]["inspect"]),
            "control_verdict_inspect": verdict_of(entry["control"]["inspect"]),
        }
        results["cases"][n] = entry
        out_path.write_text(json.dumps(results, indent=1))
    # table
    print()
    print(f"{'case':44s} {'hang inspect':10s} {'hang watch':10s} {'ctrl flag':9s} {'look flag':9s}  hang verdict (inspect)")
    ci = cw = cf = lf = 0
    for n, e in results["cases"].items():
        s = e["summary"]
        ci += s["caught_inspect"]; cw += s["caught_watch"]; cf += s["control_flagged"]; lf += s["lookalike_flagged"]
        print(f"{n:44s} {str(s['caught_inspect']):10s} {str(s['caught_watch']):10s} {str(s['control_flagged']):9s} "
              f"{str(s['lookalike_flagged']):9s}  {s['hang_verdict_inspect']}")
    N = len(results["cases"])
    results["totals"] = {"N": N, "caught_inspect": ci, "caught_watch": cw, "controls_flagged": cf, "lookalikes_flagged": lf}
    out_path.write_text(json.dumps(results, indent=1))
    print(f"\ncaught by inspect {ci}/{N}, by watch {cw}/{N}; controls flagged {cf}/{N}; look-alikes flagged {lf}/{N}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
