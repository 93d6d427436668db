"""A run directory: where it goes, and its reports written from a result."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import tempfile
from pathlib import Path

from gvlstress.errors import EnvironmentProblem
from gvlstress.model import RunResult
from gvlstress.reporters import json_report, junit, markdown
from gvlstress.reporters.files import write_atomic
from gvlstress.system.redact import redact_path


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def check_report_dir(report_dir: Path) -> Path:
    """Create `report_dir` if needed and prove it is writable, before any work starts."""
    try:
        report_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=report_dir, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise EnvironmentProblem(
            f"report directory {str(report_dir)!r} is not writable ({exc.strerror or exc})",
            hint="pass --report-dir with a writable directory",
        ) from None
    return report_dir


def new_run_dir(report_dir: Path, scenario_name: str, now: dt.datetime) -> Path:
    """reports/<UTC time>-<scenario>/, never an existing directory."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", scenario_name).strip("-")[:80] or "run"  # NAME_MAX is 255
    stem = f"{now:%Y%m%dT%H%M%SZ}-{safe}"
    for n in range(1, 1000):
        path = report_dir / (stem if n == 1 else f"{stem}-{n}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path
    raise EnvironmentProblem(f"cannot create a run directory under {report_dir}")


def write_human(result: RunResult, run_dir: Path) -> dict[str, Path]:
    """report.md and junit.xml (which points at report.md), each written atomically."""
    report_md = run_dir / "report.md"
    junit_xml = run_dir / "junit.xml"
    written = {}
    files = markdown.render_files(result)
    for name, text in files.items():
        write_atomic(run_dir / name, text)
        written[name] = run_dir / name
    if "stacks.md" not in files:  # a re-render that fits again: no stale overflow beside it
        (run_dir / "stacks.md").unlink(missing_ok=True)
    write_atomic(junit_xml, junit.render(result, redact_path(str(report_md))))
    return {**written, "junit.xml": junit_xml}


def write_reports(result: RunResult, run_dir: Path) -> dict[str, Path]:
    """run.json, report.md and junit.xml."""
    return {"run.json": json_report.write(result, run_dir), **write_human(result, run_dir)}


def export(run_dir: Path, artifacts: Path, label: str) -> Path:
    """A copy of `run_dir` (reports, captures, cores) under `artifacts`/<label>/, the directory a
    CI job uploads; `label` (a test's node id) becomes a safe directory name."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-")[:120] or "run"
    dest = artifacts / safe / run_dir.name
    try:
        shutil.copytree(run_dir, dest, dirs_exist_ok=True)
    except (OSError, shutil.Error) as exc:
        raise EnvironmentProblem(
            f"cannot copy {redact_path(str(run_dir))} to the artifacts directory {redact_path(str(artifacts))} ({exc})",
            hint="pass a writable --gvlstress-artifacts directory",
        ) from None
    return dest
