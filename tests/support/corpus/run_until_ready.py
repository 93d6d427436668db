"""Run a program in its own session until it prints `ready`, report, then kill its group (a
hand tool for checking triggers and corpus programs; not a test).

Usage: python tests/support/corpus/run_until_ready.py [--times N] [--hold S] PROGRAM [ARGS...]

Each run: start PROGRAM ARGS in a new session, read its stdout until `ready` (90 s), keep it
`--hold` seconds in place, SIGKILL its process group, wait for it, check no process of the
group is left; print one line per run. Exit 0 when every run reached `ready`.
"""

# ruff: noqa: T201

from __future__ import annotations

import argparse
import contextlib
import os
import selectors
import signal
import subprocess
import sys
import time


def group_members(pgid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                with open(f"/proc/{d}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
                    out.append(int(d))
    return out


def is_tracker(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return b"resource_tracker" in fh.read()
    except OSError:
        return False


def kill_group(pgid: int) -> None:
    """SIGKILL the group, multiprocessing's resource trackers last: a tracker whose program died
    unlinks the semaphores it was told of when its pipe closes (else they stay in /dev/shm)."""
    members = group_members(pgid)
    trackers = [k for k in members if is_tracker(k)]
    for k in members:
        if k not in trackers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(k, signal.SIGKILL)
    end = time.monotonic() + 10
    while any(k in group_members(pgid) for k in trackers) and time.monotonic() < end:
        time.sleep(0.05)  # the trackers unlinking and exiting
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def once(argv: list[str], hold: float) -> tuple[bool, float, list[str]]:
    started = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, start_new_session=True)
    assert p.stdout is not None
    lines: list[str] = []
    buf = b""
    ok = False
    with selectors.DefaultSelector() as sel:
        sel.register(p.stdout, selectors.EVENT_READ)
        end = time.monotonic() + 90
        while not ok and time.monotonic() < end:
            if not sel.select(timeout=1):
                continue
            chunk = os.read(p.stdout.fileno(), 4096)
            if not chunk:
                break
            *done, buf = (buf + chunk).split(b"\n")
            lines += [x.decode(errors="replace") for x in done]
            ok = "ready" in lines
    took = time.monotonic() - started
    if ok and hold:
        time.sleep(hold)  # the program stays in its hang for the caller to look at
    kill_group(p.pid)
    p.wait(timeout=30)
    end = time.monotonic() + 10
    while group_members(p.pid) and time.monotonic() < end:
        time.sleep(0.1)  # the group's last members being reaped by init
    left = group_members(p.pid)
    if left:
        lines.append(f"LEFT {left}")
    return ok, took, lines


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--times", type=int, default=1)
    ap.add_argument("--hold", type=float, default=0.0)
    ap.add_argument("argv", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    good = 0
    for i in range(args.times):
        ok, took, lines = once([sys.executable, *args.argv], args.hold)
        good += ok
        print(f"run {i + 1}: {'ready' if ok else 'NOT READY'} in {took:.1f} s; stdout {lines}", flush=True)
    return 0 if good == args.times else 1


if __name__ == "__main__":
    sys.exit(main())
