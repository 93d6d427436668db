#!/usr/bin/env python3
"""Run the BEFORE stages one at a time (waits for the stage already running, pid in argv[1]), then poll
/work/notes/after6-commit.txt every 60 s until 14:20 UTC, create the AFTER worktree and run the AFTER stages one
at a time. Stage case lists: logs/s2.cases, logs/s3.cases (read when the stage starts). Log: orchestrate.log.
Run from /work/blind-hangs6."""
import datetime
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path.cwd()
LOG = open(HERE / "orchestrate.log", "a", buffering=1)
MEASURE = "/work/main/blind/tools/measure.py"


def say(*a):
    print(datetime.datetime.utcnow().strftime("%H:%M:%S"), *a, file=LOG)


def alive(pid):
    try:
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        return False


def stage(kind, n, cases):
    code = "/work/blind6-before/src" if kind == "before" else "/work/blind6-after/src"
    out = HERE / (f"results-s{n}.json" if kind == "before" else f"results-after-s{n}.json")
    runs = HERE / ("runs" if kind == "before" else "runs-after")
    logf = open(HERE / (f"measure-s{n}.log" if kind == "before" else f"measure-after-s{n}.log"), "w")
    p = subprocess.Popen(["/work/venv/bin/python", MEASURE, "--code", code, "--cases", *cases, "--out", str(out),
                          "--runs", str(runs)], stdout=logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    say("started", kind, n, "pid", p.pid, len(cases), "cases")
    while p.poll() is None:
        time.sleep(5)
    say("finished", kind, n, "rc", p.returncode)


def cases_of(name):
    return (HERE / "logs" / name).read_text().split()


def main():
    first = int(sys.argv[1]) if len(sys.argv) > 1 else None
    while first and alive(first):
        time.sleep(5)
    say("stage 1 (pid", first, ") done")
    stage("before", 2, cases_of("s2.cases"))
    stage("before", 3, cases_of("s3.cases"))
    (HERE / "logs" / "before.done").write_text(time.strftime("%H:%M:%S", time.gmtime()) + "\n")
    deadline = datetime.datetime.utcnow().replace(hour=14, minute=20, second=0, microsecond=0)
    commit = None
    while datetime.datetime.utcnow() <= deadline:
        f = Path("/work/notes/after6-commit.txt")
        if f.exists():
            m = re.search(r"\b[0-9a-f]{7,40}\b", f.read_text())
            if m:
                commit = m.group(0)
                break
        time.sleep(60)
    if commit is None:
        say("no AFTER commit by 14:20 UTC; stopping")
        return
    say("after commit", commit)
    if not Path("/work/blind6-after").exists():
        r = subprocess.run(["git", "-C", "/work/main", "worktree", "add", "--detach", "/work/blind6-after", commit],
                           capture_output=True, text=True, timeout=300)
        say("worktree add rc", r.returncode, r.stdout.strip(), r.stderr.strip())
    for n, name in ((1, "s1.cases"), (2, "s2.cases"), (3, "s3.cases")):
        stage("after", n, cases_of(name))
    (HERE / "logs" / "after.done").write_text(time.strftime("%H:%M:%S", time.gmtime()) + "\n")
    say("all done")


if __name__ == "__main__":
    main()
