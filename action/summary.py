"""The action's summary step: the verdict and its fix, from the reports gvlstress wrote, into the
job summary (GITHUB_STEP_SUMMARY) and the step's output `verdict` (GITHUB_OUTPUT).

Reads run.json (``gvlstress run``), watch.json (``gvlstress watch``) and inspect.json (a look:
the plugin's watchdog, ``inspect``) under the report directory; runs in the environment the
install step made, so the verdicts' order is gvlstress's own.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

ORDER = (
    "ok",
    "idle",
    "busy",
    "stopped",
    "cancelled",
    "slow",
    "error",
    "crash",
    "stalled",
    "livelock",
    "deadlock",
)
"""Verdicts from the mildest to the worst (as gvlstress orders them)."""


def _load(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _looked(processes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [p["diagnosis"] for p in processes if isinstance(p, dict) and isinstance(p.get("diagnosis"), dict)]


def _worst(diagnoses: list[dict[str, Any]]) -> dict[str, Any]:
    """The diagnosis with the worst verdict ({} for none)."""
    return max(
        diagnoses, key=lambda d: ORDER.index(d["verdict"]) if d.get("verdict") in ORDER else 0, default={}
    )


def findings(report_dir: Path) -> list[tuple[str, dict[str, Any], Path]]:
    """(verdict, diagnosis or {}, report directory) for every report under `report_dir`."""
    out: list[tuple[str, dict[str, Any], Path]] = []
    for path in sorted(report_dir.rglob("*.json")):
        data = _load(path) if path.name in ("run.json", "watch.json", "inspect.json") else None
        if data is None:
            continue
        if path.name == "run.json":
            hung = [
                w["diagnosis"]
                for wave in data.get("waves", [])
                for w in wave.get("workers", [])
                if w.get("diagnosis")
            ]
            verdict = str(data.get("summary", {}).get("verdict", "ok"))
            out.append((verdict, hung[0] if hung else {}, path.parent))
        elif path.name == "watch.json":
            hang = data.get("hang")
            diag = _looked(hang.get("processes", [])) if isinstance(hang, dict) else []
            worst = max(
                diag,
                key=lambda d: ORDER.index(d.get("verdict", "ok")) if d.get("verdict") in ORDER else 0,
                default={},
            )
            out.append((str(worst.get("verdict", "ok")) if hang else "ok", worst, path.parent))
        elif not (path.parent / "watch.json").exists():  # a watch's own look is read through watch.json
            diag = _looked(data.get("processes", []))
            worst = max(
                diag,
                key=lambda d: ORDER.index(d.get("verdict", "ok")) if d.get("verdict") in ORDER else 0,
                default={},
            )
            out.append((str(worst.get("verdict", "ok")), worst, path.parent))
    return out


def markdown(found: list[tuple[str, dict[str, Any], Path]]) -> tuple[str, str]:
    """The job summary's section and the worst verdict."""
    if not found:
        return "### gvlstress\n\nNo report was written (see the step's log).\n", "none"
    worst = max(found, key=lambda f: ORDER.index(f[0]) if f[0] in ORDER else 0)
    verdict, diag, where = worst
    lines = [f"### gvlstress: {verdict}" + (f" ({diag['pattern']})" if diag.get("pattern") else ""), ""]
    if diag.get("summary"):
        lines += [diag["summary"], ""]
    chain = diag.get("waitfor")
    if isinstance(chain, dict) and chain.get("parties"):
        parties = [str(x) for x in chain["parties"]]
        first = (
            parties[0][:-1] + ": " + parties[1]
            if parties[0].endswith(":") and len(parties) > 1
            else parties[0]
        )
        lines += [f"**Wait-for chain** ends: {chain.get('end')}: {first}", ""]
    if diag.get("hint") and verdict in ("deadlock", "livelock", "stalled"):
        lines += [f"**Fix:** {diag['hint']}", ""]
    lines += [f"Report: `{where}/report.md` (in the uploaded artifact); {len(found)} report(s) in all.", ""]
    return "\n".join(lines), verdict


def main() -> int:
    report_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "gvlstress-reports")
    text, verdict = markdown(findings(report_dir) if report_dir.is_dir() else [])
    for var, content in (("GITHUB_STEP_SUMMARY", text + "\n"), ("GITHUB_OUTPUT", f"verdict={verdict}\n")):
        target = os.environ.get(var)
        if target:
            with open(target, "a", encoding="utf-8") as fh:
                fh.write(content)
    sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
