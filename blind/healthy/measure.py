#!/usr/bin/env python3
"""Measure gvlstress false alarms on a blind set of healthy programs (progs/p*.py).

For each program and condition (alone; beside two CPU busy loops) it runs

    python -m gvlstress watch --stall 3 --on-hang keep --report-dir D -- PY PROG

and, while that runs, `python -m gvlstress inspect --tree ROOT --report-dir D` on the job's root
at 5 s, 12 s and 20 s after the job printed `ready`. A false alarm is: watch exit 1, a hang in
watch.json, an inspect exit 1, or any per-process verdict deadlock/livelock.

    python measure.py --code /work/before/src [--only p01,p05] [--conditions alone,busy]
                      [--save-alarms DIR] [--out DIR]

stdlib + psutil. Every subprocess has its own process group and a timeout; everything started is
killed by process group / pid at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psutil

HERE = Path(__file__).resolve().parent
PROGS = HERE / "progs"
INTERPRETERS = {"blind": str(HERE / "venv" / "bin" / "python"), "work": "/work/venv/bin/python"}
GVL_PYTHON = "/work/venv/bin/python"  # the interpreter that runs gvlstress (py-spy, pystack beside it)
HANG_VERDICTS = {"deadlock", "livelock"}
MOMENTS = (5.0, 12.0, 20.0)
WATCH_TIMEOUT = 300.0
INSPECT_TIMEOUT = 120.0
READY_TIMEOUT = 120.0


class Registry:
    """Every process group and pid this runner started (or saw under what it started)."""

    def __init__(self) -> None:
        self.pgids: set[int] = set()
        self.procs: dict[int, float] = {}  # pid -> create_time
        self.lock = threading.Lock()

    def add_popen(self, p: subprocess.Popen[Any]) -> None:
        with self.lock:
            self.pgids.add(p.pid)  # start_new_session: pgid == pid
            self._add_pid(p.pid)

    def _add_pid(self, pid: int) -> None:
        try:
            self.procs[pid] = psutil.Process(pid).create_time()
        except psutil.Error:
            pass

    def sweep_descendants(self, root: int) -> None:
        try:
            kids = psutil.Process(root).children(recursive=True)
        except psutil.Error:
            return
        with self.lock:
            for k in kids:
                try:
                    self.procs.setdefault(k.pid, k.create_time())
                    self.pgids.add(os.getpgid(k.pid))
                except (psutil.Error, ProcessLookupError):
                    pass

    def kill_all(self) -> None:
        with self.lock:
            me = os.getpgid(0)
            for pg in sorted(self.pgids):
                if pg in (me, 0, 1):
                    continue
                try:
                    os.killpg(pg, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            for pid, ct in list(self.procs.items()):
                try:
                    p = psutil.Process(pid)
                    if abs(p.create_time() - ct) < 0.01:
                        p.kill()
                except psutil.Error:
                    pass
            self.pgids.clear()
            self.procs.clear()


REG = Registry()


def interpreter_of(prog: Path) -> str:
    for line in prog.read_text().splitlines()[:5]:
        m = re.match(r"#\s*interpreter:\s*(\w+)", line)
        if m:
            return INTERPRETERS[m.group(1)]
    return INTERPRETERS["blind"]


def shape_of(prog: Path) -> str:
    for line in prog.read_text().splitlines()[:5]:
        m = re.match(r"#\s*shape:\s*(.*)", line)
        if m:
            return m.group(1)
    return ""


def start_busy(n: int) -> list[subprocess.Popen[bytes]]:
    out = []
    for _ in range(n):
        p = subprocess.Popen(
            [sys.executable, "-c", "while True: pass"],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        REG.add_popen(p)
        out.append(p)
    deadline = time.monotonic() + 10
    for p in out:  # handshake by /proc: each loop has started burning CPU
        while time.monotonic() < deadline:
            try:
                if psutil.Process(p.pid).cpu_times().user > 0.05:
                    break
            except psutil.Error:
                break
            time.sleep(0.05)
    return out


def stop(p: subprocess.Popen[Any]) -> None:
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def find_job_root(watch_pid: int, prog: Path) -> int | None:
    try:
        kids = psutil.Process(watch_pid).children(recursive=True)
    except psutil.Error:
        return None
    cands = []
    for k in kids:
        try:
            cl = k.cmdline()
        except psutil.Error:
            continue
        if str(prog) in cl:
            cands.append(k)
    pids = {c.pid for c in cands}
    for c in cands:
        try:
            if c.ppid() not in pids:
                return c.pid
        except psutil.Error:
            continue
    return None


def run_inspect(env: dict[str, str], pid: int, rdir: Path) -> dict[str, Any]:
    rdir.mkdir(parents=True, exist_ok=True)
    cmd = [GVL_PYTHON, "-m", "gvlstress", "inspect", "--tree", str(pid), "--report-dir", str(rdir)]
    t0 = time.monotonic()
    p = subprocess.Popen(
        cmd, env=env, start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    REG.add_popen(p)
    try:
        out, err = p.communicate(timeout=INSPECT_TIMEOUT)
        rc: int | None = p.returncode
    except subprocess.TimeoutExpired:
        stop(p)
        out, err = p.communicate()
        rc = None
    res: dict[str, Any] = {"rc": rc, "secs": round(time.monotonic() - t0, 1), "verdicts": [], "report_dir": None}
    (rdir / "stdout.txt").write_text(out or "")
    (rdir / "stderr.txt").write_text(err or "")
    js = sorted(glob.glob(str(rdir / "*" / "inspect.json")))
    if js:
        res["report_dir"] = str(Path(js[-1]).parent)
        try:
            d = json.loads(Path(js[-1]).read_text())
            for pr in d.get("processes", []):
                diag = pr.get("diagnosis") or {}
                res["verdicts"].append(
                    {
                        "pid": pr.get("pid"),
                        "cmd": (pr.get("cmdline") or "")[-60:],
                        "verdict": diag.get("verdict"),
                        "pattern": diag.get("pattern"),
                        "summary": (diag.get("summary") or "")[:300],
                    }
                )
        except (OSError, ValueError) as e:
            res["json_error"] = repr(e)
    if not res["verdicts"]:  # fall back on the printed lines
        for line in (out or "").splitlines():
            m = re.match(r"pid (\d+): (\w+)(?: \(([^)]*)\))?", line)
            if m:
                res["verdicts"].append({"pid": int(m.group(1)), "verdict": m.group(2), "pattern": m.group(3), "summary": line[:300]})
    res["stderr_tail"] = (err or "").strip()[-300:]
    return res


def one_run(code: str, prog: Path, cond: str, stall: float, outdir: Path) -> dict[str, Any]:
    rundir = outdir / f"{prog.stem}-{cond}"
    if rundir.exists():
        shutil.rmtree(rundir)
    rundir.mkdir(parents=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = code
    env["PATH"] = "/work/venv/bin:" + env.get("PATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    busy: list[subprocess.Popen[bytes]] = []
    res: dict[str, Any] = {"prog": prog.stem, "cond": cond, "inspects": []}
    watch: subprocess.Popen[str] | None = None
    try:
        if cond == "busy":
            busy = start_busy(2)
        wdir = rundir / "watch-reports"
        wdir.mkdir()
        cmd = [
            GVL_PYTHON, "-m", "gvlstress", "watch", "--stall", str(stall), "--on-hang", "keep",
            "--report-dir", str(wdir), "--", interpreter_of(prog), str(prog),
        ]
        res["watch_cmd"] = cmd
        errf = open(rundir / "watch-stderr.txt", "w")
        t_start = time.monotonic()
        watch = subprocess.Popen(
            cmd, env=env, cwd=str(rundir), start_new_session=True, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=errf, text=True,
        )
        REG.add_popen(watch)
        ready = threading.Event()
        lines: list[str] = []

        def reader() -> None:
            assert watch is not None and watch.stdout is not None
            for line in watch.stdout:
                lines.append(line)
                if line.strip() == "ready":
                    ready.set()

        rt = threading.Thread(target=reader, daemon=True)
        rt.start()
        if not ready.wait(READY_TIMEOUT):
            res["error"] = "no ready line"
        t_ready = time.monotonic()
        res["ready_after"] = round(t_ready - t_start, 1)
        root = None
        deadline = time.monotonic() + 10
        while root is None and time.monotonic() < deadline and watch.poll() is None:
            root = find_job_root(watch.pid, prog)
            if root is None:
                time.sleep(0.1)
        res["job_root"] = root
        for k, at in enumerate(MOMENTS):
            while time.monotonic() < t_ready + at and watch.poll() is None:
                REG.sweep_descendants(watch.pid)
                time.sleep(min(0.5, max(0.0, t_ready + at - time.monotonic())))
            if root is None or watch.poll() is not None or not psutil.pid_exists(root):
                res["inspects"].append({"at": at, "rc": "ended", "verdicts": []})
                continue
            ins = run_inspect(env, root, rundir / f"inspect-{k + 1}")
            ins["at"] = at
            res["inspects"].append(ins)
        while watch.poll() is None and time.monotonic() < t_start + WATCH_TIMEOUT:
            REG.sweep_descendants(watch.pid)
            time.sleep(0.5)
        if watch.poll() is None:
            res["watch_rc"] = "TIMEOUT"
            stop(watch)
        else:
            res["watch_rc"] = watch.returncode
        rt.join(timeout=5)
        res["duration"] = round(time.monotonic() - t_start, 1)
        res["job_stdout_tail"] = "".join(lines[-3:]).strip()
        (rundir / "job-stdout.txt").write_text("".join(lines))
        errf.close()
        res["watch_stderr_tail"] = (rundir / "watch-stderr.txt").read_text().strip()[-600:]
        wj = sorted(glob.glob(str(wdir / "*" / "watch.json")))
        res["watch_report_dirs"] = [str(Path(p).parent) for p in wj]
        res["hang"] = None
        res["watch_json_exit"] = None
        res["quiet_spells"] = None
        if wj:
            try:
                d = json.loads(Path(wj[-1]).read_text())
                res["hang"] = d.get("hang")
                res["watch_json_exit"] = d.get("exit_code")
                qs = d.get("quiet")
                res["quiet_spells"] = len(qs) if isinstance(qs, list) else qs
            except (OSError, ValueError) as e:
                res["watch_json_error"] = repr(e)
        if res["hang"] is None and (rundir / "watch-reports").exists():
            # a hang may be reported by inspect.json only
            for ij in glob.glob(str(wdir / "*" / "inspect.json")):
                try:
                    d = json.loads(Path(ij).read_text())
                    vs = [(p.get("diagnosis") or {}).get("verdict") for p in d.get("processes", [])]
                    if any(v in HANG_VERDICTS for v in vs):
                        res["hang"] = {"from_inspect_json": vs}
                except (OSError, ValueError):
                    pass
    finally:
        if watch is not None and watch.poll() is None:
            stop(watch)
        for b in busy:
            stop(b)
        REG.kill_all()
    return res


def hang_lines(r: dict[str, Any]) -> list[str]:
    """watch's own words for a hang: its 'hang after ...' and 'gvlstress watch: hang:' lines."""
    wc = r.get("watch_cmd") or []
    try:
        rundir = Path(wc[wc.index("--report-dir") + 1]).parent
        text = (rundir / "watch-stderr.txt").read_text(errors="replace")
    except (ValueError, IndexError, OSError):
        text = r.get("watch_stderr_tail", "")
    return [ln.strip()[:300] for ln in text.splitlines() if ln.startswith("hang after") or ln.startswith("gvlstress watch: hang:")]


def hang_words(h: Any) -> str:
    if not h:
        return ""
    if isinstance(h, dict):
        for key in ("summary", "verdict", "reason", "line"):
            if isinstance(h.get(key), str):
                return h[key][:200]
        return json.dumps(h)[:200]
    return str(h)[:200]


def classify(r: dict[str, Any]) -> dict[str, Any]:
    watch_alarm = r.get("watch_rc") == 1 or bool(r.get("hang"))
    ins_alarms = []
    for ins in r["inspects"]:
        bad = ins.get("rc") == 1 or any(v.get("verdict") in HANG_VERDICTS for v in ins.get("verdicts", []))
        ins_alarms.append(bad)
    return {"watch": watch_alarm, "inspect": ins_alarms}


def fmt_verdicts(ins: dict[str, Any]) -> str:
    if ins.get("rc") == "ended":
        return "ended"
    vs = ins.get("verdicts", [])
    words = sorted({v.get("verdict") or "?" for v in vs})
    counts = {w: sum(1 for v in vs if v.get("verdict") == w) for w in words}
    return f"rc={ins.get('rc')} " + ",".join(f"{w}x{n}" for w, n in counts.items())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--code", required=True, help="gvlstress src dir put on PYTHONPATH")
    ap.add_argument("--only", default="", help="comma-separated program name prefixes (p01,p05)")
    ap.add_argument("--conditions", default="alone,busy")
    ap.add_argument("--stall", type=float, default=3.0)
    ap.add_argument("--out", default="", help="where run dirs go [runs/<code-tag>]")
    ap.add_argument("--save-alarms", default="", help="copy each false alarm's report dirs here")
    ap.add_argument("--from-results", default="", help="only print the table from a results.json (no run)")
    a = ap.parse_args()
    code = str(Path(a.code).resolve())
    if not (Path(code) / "gvlstress" / "__main__.py").exists() and not (Path(code) / "gvlstress").is_dir():
        print(f"--code {code}: no gvlstress package there", file=sys.stderr)
        return 2
    tag = re.sub(r"[^A-Za-z0-9]+", "_", code).strip("_")
    outdir = Path(a.out) if a.out else HERE / "runs" / tag
    outdir.mkdir(parents=True, exist_ok=True)
    progs = sorted(PROGS.glob("p[0-9][0-9]_*.py"))
    if a.only:
        pre = [s.strip() for s in a.only.split(",") if s.strip()]
        progs = [p for p in progs if any(p.stem.startswith(x) for x in pre)]
    conds = [c.strip() for c in a.conditions.split(",") if c.strip()]

    def on_term(signum: int, frame: Any) -> None:
        REG.kill_all()
        raise SystemExit(143)

    signal.signal(signal.SIGTERM, on_term)
    results: list[dict[str, Any]] = []
    if a.from_results:
        results = json.loads(Path(a.from_results).read_text())
        progs = []
        for r in results:
            r["class"] = classify(r)
    print(f"code: {code}  stall: {a.stall}  moments: {MOMENTS}  programs: {len(progs)}  conditions: {conds}", flush=True)
    try:
        for prog in progs:
            for cond in conds:
                t0 = time.monotonic()
                try:
                    r = one_run(code, prog, cond, a.stall, outdir)
                except Exception as e:  # record and go on
                    r = {"prog": prog.stem, "cond": cond, "inspects": [], "error": repr(e), "watch_rc": None}
                r["class"] = classify(r)
                results.append(r)
                (outdir / "results.json").write_text(json.dumps(results, indent=1, default=str))
                c = r["class"]
                flag = "ALARM" if c["watch"] or any(c["inspect"]) else "ok"
                print(
                    f"  {prog.stem:28s} {cond:5s} watch rc={r.get('watch_rc')} hang={'yes' if r.get('hang') else 'no'} "
                    f"| " + " | ".join(fmt_verdicts(i) for i in r["inspects"]) + f" | {flag} ({time.monotonic() - t0:.0f}s)",
                    flush=True,
                )
    finally:
        REG.kill_all()

    # table
    print()
    print("(watch: exit code, hang or not, q = quiet spells watch looked at and judged healthy)")
    print(f"{'program':28s} {'cond':5s} {'watch':22s} {'inspect@5s':22s} {'inspect@12s':22s} {'inspect@20s':22s}")
    for r in results:
        w = f"rc={r.get('watch_rc')} " + ("HANG" if r.get("hang") else "no-hang") + f" q={r.get('quiet_spells')}"
        ins = [fmt_verdicts(i) for i in r["inspects"]] + [""] * (3 - len(r["inspects"]))
        print(f"{r['prog']:28s} {r['cond']:5s} {w:22s} {ins[0]:22s} {ins[1]:22s} {ins[2]:22s}" + (f"  ERROR {r['error']}" if r.get("error") else ""))
    print()
    print("totals (false alarm = watch exit 1 or a hang in watch.json; inspect exit 1 or a deadlock/livelock verdict):")
    for cond in conds:
        rs = [r for r in results if r["cond"] == cond]
        wa = sum(1 for r in rs if r["class"]["watch"])
        ni = sum(1 for r in rs for i in r["inspects"] if i.get("rc") != "ended")
        ia = sum(1 for r in rs for k, i in enumerate(r["inspects"]) if r["class"]["inspect"][k])
        pa = sum(1 for r in rs if any(r["class"]["inspect"]))
        print(f"  {cond:5s}: watch {wa}/{len(rs)} runs; inspect {ia}/{ni} looks ({pa}/{len(rs)} programs with >=1)")
    wa = sum(1 for r in results if r["class"]["watch"])
    ni = sum(1 for r in results for i in r["inspects"] if i.get("rc") != "ended")
    ia = sum(1 for r in results for k, i in enumerate(r["inspects"]) if r["class"]["inspect"][k])
    anyr = sum(1 for r in results if r["class"]["watch"] or any(r["class"]["inspect"]))
    print(f"  all  : watch {wa}/{len(results)} runs; inspect {ia}/{ni} looks; runs with any alarm {anyr}/{len(results)}")
    bad_jobs = [r for r in results if r.get("watch_rc") not in (0, 1) or r.get("error")]
    if bad_jobs:
        print("  runs where the job did not end 0 (not counted as alarms; check the program):")
        for r in bad_jobs:
            print(f"    {r['prog']} {r['cond']}: watch rc={r.get('watch_rc')} {r.get('error', '')}")
    print()
    print("false alarms, with their verdict words:")
    n = 0
    for r in results:
        c = r["class"]
        if c["watch"]:
            n += 1
            print(f"  {r['prog']} {r['cond']} watch rc={r.get('watch_rc')}:")
            for ln in hang_lines(r):
                print(f"    {ln}")
            h = r.get("hang")
            if isinstance(h, dict):
                for p in h.get("processes", []):
                    dg = p.get("diagnosis") or {}
                    print(f"    watch.json hang.processes: pid {p.get('pid')} {dg.get('verdict')} ({dg.get('pattern')}): {(dg.get('summary') or '')[:200]}")
            if a.save_alarms:
                for d in r.get("watch_report_dirs", []):
                    dst = Path(a.save_alarms) / f"{r['prog']}-{r['cond']}-watch-{Path(d).name}"
                    shutil.copytree(d, dst, dirs_exist_ok=True)
        for k, i in enumerate(r["inspects"]):
            if c["inspect"][k]:
                n += 1
                bad = [v for v in i.get("verdicts", []) if v.get("verdict") in HANG_VERDICTS]
                print(f"  {r['prog']} {r['cond']} inspect@{i['at']:.0f}s rc={i.get('rc')}:")
                for v in bad:
                    print(f"    pid {v.get('pid')} {v.get('cmd', '')}: {v.get('summary')}")
                if a.save_alarms and i.get("report_dir"):
                    dst = Path(a.save_alarms) / f"{r['prog']}-{r['cond']}-inspect{k + 1}-{Path(i['report_dir']).name}"
                    shutil.copytree(i["report_dir"], dst, dirs_exist_ok=True)
    if n == 0:
        print("  none")
    print(f"\nresults: {outdir / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
