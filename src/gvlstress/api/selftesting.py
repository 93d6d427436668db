"""`selftest`: every control, positive and negative, on this host."""

from __future__ import annotations

import json
from pathlib import Path

from gvlstress.api.output import check_report_dir, new_run_dir, utc_now
from gvlstress.api.running import run
from gvlstress.controls import selftest as selftest_mod
from gvlstress.model.controls import Row, SelftestResult
from gvlstress.reporters import markdown
from gvlstress.reporters.files import write_atomic
from gvlstress.supervisor import StopFlag


def selftest(
    names: tuple[str, ...] | None = None,
    repeat: int = 1,
    workers: int = 2,
    rayon: int = 8,
    report_dir: Path = Path("reports"),
    progress: selftest_mod.ProgressFn | None = None,
    stop: StopFlag | None = None,
) -> SelftestResult:
    """Run every control (positive and negative) `repeat` times on this host."""
    from gvlstress.scenario_sources import resolve

    check_report_dir(report_dir)
    started = utc_now()
    run_dir = new_run_dir(report_dir, "selftest", started)
    stop = stop if stop is not None else StopFlag()
    rows = []
    for control in selftest_mod.controls(names):
        attempts = []
        for i in range(repeat):
            if stop:
                break
            settings = selftest_mod.scenario_settings(control, workers, rayon, run_dir)
            scenario = resolve(None, settings)
            result = run(scenario, stop=stop, command=("gvlstress", "selftest", "--only", control.name))
            attempt = selftest_mod.attempt_of(result)
            attempts.append(attempt)
            if progress is not None:
                progress(control, i, attempt)
        rows.append(Row(control, tuple(attempts)))
    out = SelftestResult(tuple(rows), str(run_dir))
    write_atomic(run_dir / "selftest.json", json.dumps(selftest_mod.as_dict(out), indent=2) + "\n")
    write_atomic(run_dir / "selftest.md", markdown.render_selftest(out))
    return out
