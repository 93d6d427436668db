#!/usr/bin/env python3
"""Quick self-check of cases: hang stays hung 6 s after ready; control and look-alike end by themselves."""
import json, os, signal, subprocess, sys, time, select
from pathlib import Path

from kill import kill_tree  # this folder is on sys.path: run as ../tools/NAME.py

ROOT = Path.cwd() / "cases"  # run from the corpus's directory (blind/hangs, blind/hangs2)



def run(case: Path, prog: str, hang: bool):
    cfg = json.loads((case / "case.json").read_text())
    py = cfg.get(prog + "_python", cfg["python"])
    p = subprocess.Popen([py, prog + ".py"], cwd=case, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    fd = p.stdout.fileno(); buf = b""
    t0 = time.time(); out = []; ready = None
    try:
        while time.time() - t0 < (20 if hang else 60):
            r, _, _ = select.select([p.stdout], [], [], 0.2)
            if r:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                buf += chunk
                *lines, buf = buf.split(b"\n")
                out.extend(l.decode(errors="replace") for l in lines)
                if any(l.strip() == b"ready" for l in lines) and ready is None:
                    ready = time.time() - t0
                    if hang:
                        time.sleep(6)
                        alive = p.poll() is None
                        return f"{'HUNG' if alive else 'ENDED rc=%s' % p.returncode} ready@{ready:.1f}s out={out[-3:]}"
            if p.poll() is not None and not r:
                break
        p.wait(timeout=60 if not hang else 1)
        return f"rc={p.returncode} t={time.time()-t0:.1f}s ready={ready} out={out[-3:]}"
    except subprocess.TimeoutExpired:
        return f"TIMEOUT ready={ready} out={out[-3:]}"
    finally:
        kill_tree(p.pid)
        p.wait()

if __name__ == "__main__":
    names = sys.argv[1:] or sorted(d.name for d in ROOT.iterdir() if d.is_dir())
    for n in names:
        case = ROOT / n
        for prog in ("hang", "control", "lookalike"):
            print(f"{n:40s} {prog:9s} {run(case, prog, prog == 'hang')}", flush=True)
