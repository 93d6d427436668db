#!/usr/bin/env python3
"""Run the remaining measure.py stages (never more than two of mine at once), poll for the AFTER commit
every 30 s until 11:00 UTC, create its worktree, measure it. Log to orchestrate.log. Run from /work/blind-hangs5."""
import datetime, os, re, subprocess, sys, time
from pathlib import Path

HERE = Path.cwd()
cases = sorted(p.name for p in (HERE / "cases").iterdir() if p.is_dir())
groups = [cases[0:8], cases[8:16], cases[16:]]
known = [int(x) for x in sys.argv[1:]]          # pids of stages already running (started by me)
pending = []
after_commit = None
after_added = False
running = []                                    # Popen objects
log = open(HERE / "orchestrate.log", "a", buffering=1)


def say(*a):
    print(datetime.datetime.utcnow().strftime("%H:%M:%S"), *a, file=log)


def alive(pid):
    try:
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        return False


def start(kind, n, group):
    code = "/work/blind5-before/src" if kind == "before" else "/work/blind5-after/src"
    out = f"results-s{n}.json" if kind == "before" else f"results-after-s{n}.json"
    runs = str(HERE / ("runs" if kind == "before" else "runs-after"))
    logf = open(HERE / (f"measure-s{n}.log" if kind == "before" else f"measure-after-s{n}.log"), "w")
    p = subprocess.Popen(["/work/venv/bin/python", "/work/main/blind/tools/measure.py", "--code", code,
                          "--cases", *group, "--out", out, "--runs", runs], stdout=logf, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    say("started", kind, n, "pid", p.pid, len(group), "cases")
    running.append(p)


deadline_poll = datetime.datetime.utcnow().replace(hour=11, minute=0, second=0, microsecond=0)
hard_end = time.time() + 4 * 3600
while time.time() < hard_end:
    known = [k for k in known if alive(k)]
    for p in list(running):
        if p.poll() is not None:
            say("finished pid", p.pid, "rc", p.returncode)
            running.remove(p)
    if after_commit is None and datetime.datetime.utcnow() <= deadline_poll:
        f = Path("/work/notes/after5-commit.txt")
        if f.exists():
            m = re.search(r"\b[0-9a-f]{40}\b", f.read_text())
            if m:
                after_commit = m.group(0)
                say("after commit", after_commit)
                if not Path("/work/blind5-after").exists():
                    r = subprocess.run(["git", "-C", "/work/main", "worktree", "add", "--detach", "/work/blind5-after",
                                        after_commit], capture_output=True, text=True, timeout=300)
                    say("worktree add rc", r.returncode, r.stdout.strip(), r.stderr.strip())
    if after_commit and not after_added:
        pending += [("after", i + 1, g) for i, g in enumerate(groups)]
        after_added = True
    while pending and len(known) + len(running) < 2:
        start(*pending.pop(0))
    if not pending and not running and not known:
        if after_added or datetime.datetime.utcnow() > deadline_poll:
            say("all done (after measured: %s)" % bool(after_added))
            break
    time.sleep(30)
