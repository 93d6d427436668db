"""The hang around the loader, measured: how often each lever makes it happen, how fast it is
found, and that a healthy run with the same levers raises no alarm.

- sizes: the native fixture under ``--kill-worker sending`` at result sizes 16 kB, 1 MB and
  64 MB (a result that fits the pipe is never "being sent" long enough to be killed mid-frame);
- headroom: healthy waves returning 64 MB each under a 1 GiB memory limit (false alarms; the
  baseline the levers are read against is the same workers without them);
- gvl: genvarloader 0.36.0 (``--python``, the venv the e2e tests make) and the release in this
  environment, mechanism B (``--kill-worker sending`` with 64 MB results) and mechanism A
  (``-o loader=fork``) with its control (``-o loader=forkserver``).

Printed: hung waves / waves with 95% intervals, the median seconds to detection, the pattern.

    python bench/wedge.py --waves 10
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from gvlstress import api
from gvlstress.campaign.stats import rate
from gvlstress.model import RunResult
from gvlstress.scenario import Scenario
from gvlstress.system.cache import cache_root

MB = 1 << 20


def cell(label: str, result: RunResult) -> str:
    """One table row: hung waves with their interval, median detection, patterns, the rest."""
    waves = result.waves
    hung = [w for w in waves if w.verdict.is_hang]
    detect = [w.detect_s for w in hung if w.detect_s is not None]
    named = Counter(
        o.diagnosis.pattern for w in hung for o in w.workers if o.diagnosis and o.diagnosis.pattern
    )
    others = Counter(w.verdict.value for w in waves if not w.verdict.is_hang)
    median = f"{statistics.median(detect):.1f} s" if detect else "-"
    rest = ", ".join(f"{k} {v}" for v, k in others.items()) or "-"
    return f"| {label} | {rate(len(hung), len(waves))} | {median} | {', '.join(named) or '-'} | {rest} |"


def run(report_dir: str, **kw: Any) -> RunResult:
    base: dict[str, Any] = {"workers": 3, "rayon": 2, "iterations": 8, "report_dir": report_dir}
    return api.run(Scenario(**{**base, **kw}))


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--waves", type=int, default=10, help="waves per cell (gvl cells: half of it)")
    ap.add_argument("--skip-gvl", action="store_true")
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="bench-wedge-")
    rows = [
        "| cell | hung waves (95% CI) | median detection | pattern | other waves |",
        "|---|---|---|---|---|",
    ]
    for size in (16 << 10, MB, 64 * MB):
        r = run(out, name=f"wedge-{size}", waves=args.waves, result_bytes=size, kill_worker="sending")
        kills = sum(1 for w in r.waves if (w.amplifiers.get("kill_worker") or {}).get("killed"))
        rows.append(cell(f"native, {size // 1024} kB results, --kill-worker sending ({kills} kills)", r))
        print(rows[-1], flush=True)
    base = run(out, name="healthy", waves=args.waves * 2, result_bytes=0)
    rows.append(cell("native, healthy, no levers (baseline)", base))
    roomy = run(out, name="headroom", waves=args.waves * 2, result_bytes=64 * MB, memory_limit=1 << 30)
    rows.append(cell("native, 64 MB results, 1 GiB memory limit (false alarms)", roomy))
    print("\n".join(rows[-2:]), flush=True)
    if not args.skip_gvl:
        old = cache_root() / "venvs" / "gvl-0.36.0" / "bin" / "python"
        pythons = {"0.36.0": str(old) if old.exists() else None, "this env": sys.executable}
        n = max(1, args.waves // 2)
        for version, python in pythons.items():
            if python is None:
                print(f"(no genvarloader 0.36.0 venv at {old}: run the e2e tests once)")
                continue
            common: dict[str, Any] = {"target": "genvarloader", "python": python, "waves": n}
            common |= {"rayon": 4, "iterations": 5, "timeout": 120, "startup_grace": 240}
            b = run(out, name=f"gvl-B-{version}", result_bytes=64 * MB, kill_worker="sending", **common)
            rows.append(cell(f"genvarloader {version}: B, --kill-worker sending, 64 MB", b))
            for loader in ("fork", "forkserver"):
                a = run(
                    out, name=f"gvl-A-{loader}-{version}", options={"loader": loader}, workers=2, **common
                )
                rows.append(cell(f"genvarloader {version}: A, loader={loader}", a))
            print("\n".join(rows[-3:]), flush=True)
    print("\n" + "\n".join(rows))
    print(f"\nreports under {Path(out)}")


if __name__ == "__main__":
    main()
