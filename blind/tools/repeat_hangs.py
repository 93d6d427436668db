#!/usr/bin/env python3
"""Start every case's hang.py N times (default 3): each must print `ready` and still be alive 6 s later.
Every started process group is killed by its pgid. Run from a corpus directory (blind/hangsN): ../tools/repeat_hangs.py."""
import json, os, select, signal, subprocess, sys, time
from pathlib import Path

from kill import kill_tree  # this folder is on sys.path: run as ../tools/NAME.py

CASES = Path.cwd() / "cases"




def once(case: Path) -> str:
    cfg = json.loads((case / "case.json").read_text())
    py = cfg.get("hang_python", cfg["python"])
    p = subprocess.Popen([py, "hang.py"], cwd=case, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    buf = b""
    try:
        t0 = time.time()
        while time.time() - t0 < 40:
            r, _, _ = select.select([p.stdout], [], [], 0.2)
            if r:
                chunk = os.read(p.stdout.fileno(), 65536)
                if not chunk:
                    return "ENDED before ready"
                buf += chunk
                if b"ready\n" in buf:
                    time.sleep(6)
                    return "HUNG" if p.poll() is None else f"ENDED rc={p.returncode}"
            elif p.poll() is not None:
                return f"ENDED rc={p.returncode} before ready"
        return "no ready in 40 s"
    finally:
        kill_tree(p.pid)
        p.wait()


if __name__ == "__main__":
    n = 3
    names = sys.argv[1:] or sorted(d.name for d in CASES.iterdir() if d.is_dir())
    bad = 0
    for name in names:
        res = [once(CASES / name) for _ in range(n)]
        ok = all(r == "HUNG" for r in res)
        bad += not ok
        print(f"{name:52s} {sum(r == 'HUNG' for r in res)}/{n} {'' if ok else res}", flush=True)
    print("all hung every time" if not bad else f"{bad} case(s) did not hang every time")
