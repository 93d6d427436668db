"""Start every hang.py N times; each must print `ready` and still be alive 4 s later. Kills by process group."""
import json, os, select, signal, subprocess, sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parent.parent / "cases"
N = int(sys.argv[1]) if len(sys.argv) > 1 else 3
ONLY = set(sys.argv[2:])
for case in sorted(d for d in ROOT.iterdir() if d.is_dir() and (not ONLY or d.name in ONLY)):
    cfg = json.loads((case / "case.json").read_text())
    py = cfg.get("hang_python", cfg["python"])
    res = []
    for i in range(N):
        p = subprocess.Popen([py, "hang.py"], cwd=case, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        buf, ok, t0 = b"", None, time.time()
        try:
            while time.time() - t0 < 30:
                r, _, _ = select.select([p.stdout], [], [], 0.2)
                if r:
                    c = os.read(p.stdout.fileno(), 65536)
                    if not c:
                        break
                    buf += c
                    if b"ready\n" in buf:
                        time.sleep(4)
                        ok = p.poll() is None
                        break
                elif p.poll() is not None:
                    break
        finally:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
        res.append("HUNG" if ok else "ENDED/NOREADY")
    print(f"{case.name:45s} {' '.join(res)}", flush=True)
