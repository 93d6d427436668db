"""What leaving `gvlstress watch` on costs: its own CPU on a healthy tree of 64 processes x 16 threads.

Two cases: the always-on cost (a tree that makes progress now and then, never looked at) and
the bounded look (the same tree quiet for good: looked at whole once, then from /proc alone
while nothing changed; ``--quiet-seconds``, 0 skips it).

The tree: a launcher starting 63 children, each with 15 sleeping threads (16 threads a process,
the launcher's included), healthy and quiet but making progress now and then (the launcher
writes a line every `BEAT_S` seconds), so watch reads /proc and never looks. Measured over one
window in the same run:

- baseline: the same tree with nobody watching (its own CPU), and this script's measurement loop
  (psutil cpu_times and a TracerPid check of every process of the tree once a second);
- watched: ``gvlstress watch --stall 30 -- TREE``, its own CPU and its children's (the watchdog
  helper included; the job's tree left out), from psutil cpu_times at the window's ends.

Printed: each as a share of one core; watch's as a ratio to one core and to the baseline's
measurement loop (a hand-written watcher reading the tree's /proc once a second), against the
goal (under 1% of one core); the highest TracerPid seen in the tree during the window (0:
nothing attached before a stall) and the looks watch took (none: no stack tool ran). Exit 0 when
all three hold.

    python bench/watch_overhead.py            # a 60 s window each
    python bench/watch_overhead.py --quick    # a 15 s window each
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil

PROCS = 64
THREADS = 16
BEAT_S = 5.0
STALL_S = 30.0
"""Far above BEAT_S: a healthy tree is never looked at (a look would attach; this measures the
steady state, which is what leaving it on costs)."""
GOAL = 1.0
"""Per cent of one core."""
QUIET_STALL_S = 10.0
"""The quiet case: the tree makes no progress at all, so it is looked at after 10, 20, 40, 80 s;
the first look is a whole one (stacks), the later ones, of the unchanged healthy tree, /proc alone."""
QUIET_GOAL = 5.0
"""Per cent of one core, averaged over the quiet window (the first look included)."""

TREE = f"""
import subprocess, sys, threading, time

def sleepers():
    for _ in range({THREADS} - 1):
        threading.Thread(target=threading.Event().wait, daemon=True).start()

if sys.argv[1:] == ["child"]:
    sleepers()
    sys.stdin.read()  # until the launcher ends (its pipe closes): then end too
    raise SystemExit(0)
kids = [
    subprocess.Popen([sys.executable, "-c", SELF, "child"], stdin=subprocess.PIPE)
    for _ in range({PROCS} - 1)
]
sleepers()
while not QUIET:  # progress now and then: a line of output
    sys.stdout.write("beat " + "." * 95 + chr(10))
    sys.stdout.flush()
    time.sleep({BEAT_S})
while True:  # quiet: no progress at all, healthy (a timed sleep; a wait nobody can end is a hang)
    time.sleep(3600)
"""
"""The tree's program (``python -c``); SELF is its own text, so a child runs the same program."""


def tree_argv(quiet: bool = False) -> list[str]:
    return [sys.executable, "-c", f"QUIET = {quiet}\nSELF = {TREE!r}\n{TREE}"]


@dataclass(frozen=True)
class Window:
    seconds: float
    watch_cpu: float
    """CPU seconds of watch and its helpers (0 in the baseline)."""
    helpers_cpu: float
    """Of which its live children outside the job's tree (the watchdog)."""
    tree_cpu: float
    loop_cpu: float
    """This script's own CPU seconds over the window."""
    tracer_max: int
    looks: int
    proc_only: int = 0
    """Looks judged from /proc alone (the tree unchanged since a look found it healthy)."""


def cpu(p: psutil.Process) -> float:
    try:
        t = p.cpu_times()
    except psutil.Error:
        return 0.0
    return t.user + t.system


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def wait_tree(root: int, timeout: float = 120) -> list[int]:
    """The tree's pids once all PROCS processes have THREADS threads each (a bounded /proc poll)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = [root, *(c.pid for c in descendants(root))]
        try:
            ready = len(pids) == PROCS and all(len(os.listdir(f"/proc/{p}/task")) == THREADS for p in pids)
        except OSError:
            ready = False
        if ready:
            return pids
        time.sleep(0.2)
    raise SystemExit(f"the tree did not come up in {timeout:.0f}s")


def tracer(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("TracerPid:"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


def measure(
    tree_pids: list[int], seconds: float, harness: Callable[[], tuple[float, float]]
) -> tuple[float, float, float, float, int]:
    """(harness CPU, of which its helpers, tree CPU, this loop's CPU, highest TracerPid) over
    `seconds`."""
    me = psutil.Process()
    procs = [psutil.Process(p) for p in tree_pids]
    h0, t0, m0 = harness(), sum(cpu(p) for p in procs), cpu(me)
    traced = 0
    start = time.monotonic()
    while (left := seconds - (time.monotonic() - start)) > 0:
        traced = max([traced, *(tracer(p) for p in tree_pids)])
        time.sleep(min(1.0, left))
    h1 = harness()
    return h1[0] - h0[0], h1[1] - h0[1], sum(cpu(p) for p in procs) - t0, cpu(me) - m0, traced


def baseline(seconds: float) -> Window:
    proc = subprocess.Popen(tree_argv(), stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        pids = wait_tree(proc.pid)
        _, _, tree, loop, traced = measure(pids, seconds, lambda: (0.0, 0.0))
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    return Window(seconds, 0.0, 0.0, tree, loop, traced, 0)


def watched(seconds: float, out: Path, quiet: bool = False) -> Window:
    stall = QUIET_STALL_S if quiet else STALL_S
    cmd = [sys.executable, "-m", "gvlstress", "watch", "--stall", str(stall), "--report-dir", str(out)]
    proc = subprocess.Popen(
        [*cmd, "--", *tree_argv(quiet)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    watch = psutil.Process(proc.pid)
    try:
        deadline = time.monotonic() + 60
        job = None
        while job is None and time.monotonic() < deadline:  # the job: watch's child running the tree
            job = next((c for c in watch.children() if "SELF = " in " ".join(c.cmdline())), None)
            time.sleep(0.1)
        if job is None:
            raise SystemExit("watch did not start the tree")
        pids = wait_tree(job.pid)

        def harness() -> tuple[float, float]:
            """watch with its reaped children and its live ones outside the job's tree (the
            watchdog); and those live ones alone."""
            try:
                t = watch.cpu_times()
            except psutil.Error:
                return 0.0, 0.0
            helpers = sum(cpu(c) for c in watch.children(recursive=True) if c.pid not in pids)
            return t.user + t.system + t.children_user + t.children_system + helpers, helpers

        spent, helpers, tree, loop, traced = measure(pids, seconds, harness)
    finally:
        os.kill(proc.pid, signal.SIGTERM)  # as a scheduler ends it: the job's group goes too
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    (report,) = out.glob("*/watch.json")
    data = json.loads(report.read_text())
    alone = sum(1 for q in data["quiet"] if "judged from /proc alone" in q["summary"])
    return Window(
        seconds, spent, helpers, tree, loop, traced, len(data["quiet"]) + (1 if data["hang"] else 0), alone
    )


def share(cpu_s: float, seconds: float) -> str:
    return f"{100 * cpu_s / seconds:.3f}% of one core ({cpu_s:.2f} CPU s in {seconds:.0f} s)"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="the window measured (each run)")
    ap.add_argument("--quick", action="store_true", help="a 15 s window instead")
    ap.add_argument("--quiet-seconds", type=float, default=120.0, help="the quiet case's window (0: skip it)")
    args = ap.parse_args()
    seconds = 15.0 if args.quick else args.seconds
    print(f"tree: {PROCS} processes x {THREADS} threads; window {seconds:.0f} s; {os.cpu_count()} cores")
    base = baseline(seconds)
    with tempfile.TemporaryDirectory(prefix="gvlstress-watch-bench-") as tmp:
        run = watched(seconds, Path(tmp))
    print(f"baseline, nobody watching: the tree {share(base.tree_cpu, seconds)}")
    print(f"  this script's measurement loop {share(base.loop_cpu, seconds)}")
    print(f"watched: the tree {share(run.tree_cpu, seconds)}; the loop {share(run.loop_cpu, seconds)}")
    print(f"gvlstress watch and its helpers: {share(run.watch_cpu, seconds)}")
    print(f"  of which the watchdog process: {share(run.helpers_cpu, seconds)}")
    pct = 100 * run.watch_cpu / seconds
    print(f"  ratio to one core: {run.watch_cpu / seconds:.4f}")
    if base.loop_cpu > 0:
        print(f"  ratio to the baseline measurement loop: {run.watch_cpu / base.loop_cpu:.1f}x")
    print(f"goal < {GOAL:g}% of one core: {'met' if pct < GOAL else 'NOT met'} ({pct:.3f}%)")
    print(f"highest TracerPid in the tree during the window: {run.tracer_max} (0: nothing attached)")
    print(f"looks taken (stack tools run): {run.looks}")
    ok = pct < GOAL and run.tracer_max == 0 and run.looks == 0
    if args.quiet_seconds > 0:
        ok = quiet_case(args.quiet_seconds, base) and ok
    return 0 if ok else 1


def quiet_case(seconds: float, base: Window) -> bool:
    """The bounded look: the same tree with no progress at all. The first look is a whole one
    (stacks of all 64 processes); measured here is what comes after it, over `seconds`: the
    looks at the unchanged healthy tree (from /proc alone) and the always-on reading between
    them, against the always-on cost measured above in the same run."""
    with tempfile.TemporaryDirectory(prefix="gvlstress-watch-bench-") as tmp:
        out, log = Path(tmp), Path(tmp) / "watch.log"
        cmd = [sys.executable, "-m", "gvlstress", "watch", "--stall", str(QUIET_STALL_S), "--log", str(log)]
        proc = subprocess.Popen(
            [*cmd, "--report-dir", str(out / "r"), "--", *tree_argv(quiet=True)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        watch = psutil.Process(proc.pid)

        def used() -> float:
            t = watch.cpu_times()
            return t.user + t.system + t.children_user + t.children_system

        def said(text: str) -> int:
            return log.read_text().count(text) if log.exists() else 0

        try:
            deadline = time.monotonic() + 600
            t_start, c_start = time.monotonic(), used()
            while said("looked, healthy") + said("hang after") < 1 and time.monotonic() < deadline:
                time.sleep(0.5)  # polling the log for the first look's line, with a deadline
            first_cpu, first_s = used() - c_start, time.monotonic() - t_start
            t1, c1 = time.monotonic(), used()
            while time.monotonic() - t1 < seconds:
                time.sleep(0.5)  # the measured window itself
            after_cpu, alone = used() - c1, said("judged from /proc alone")
            looks = said("looked, healthy")
        finally:
            os.kill(proc.pid, signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
    pct = 100 * after_cpu / seconds
    print(f"quiet tree (no progress at all), --stall {QUIET_STALL_S:g}:")
    print(
        f"  until the first look's verdict (a whole look, stacks): {first_cpu:.2f} CPU s in {first_s:.0f} s"
    )
    print(f"  then over {seconds:.0f} s: {share(after_cpu, seconds)}")
    print(f"  looks: {looks}, of which from /proc alone (no stack, no stop): {alone}")
    if base.loop_cpu > 0:
        print(f"  ratio to the always-on baseline measurement loop: {after_cpu / base.loop_cpu:.1f}x")
    print(
        f"  goal < {QUIET_GOAL:g}% of one core after the first look: {'met' if pct < QUIET_GOAL else 'NOT met'} ({pct:.3f}%)"
    )
    return pct < QUIET_GOAL and alone >= 1


if __name__ == "__main__":
    sys.exit(main())
