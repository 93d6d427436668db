"""Raw dumps next to the report: py-spy JSON, native stacks text and /proc samples per process,
and the merged capture that run.json refers to. (Tool output was redacted when it was read.)"""

from __future__ import annotations

from pathlib import Path

from gvlstress.model import Capture, Verdict, WaveResult
from gvlstress.reporters.files import write_atomic
from gvlstress.reporters.json_report import write_capture
from gvlstress.store import capture_dir, capture_ref, error_ref
from gvlstress.system.text import printable


def write_raw(capture: Capture, directory: Path) -> list[Path]:
    """One file per raw view of one captured process."""
    paths = []
    for name, text in capture.raw.items():
        write_atomic(directory / name, text)
        paths.append(directory / name)
    return paths


def write(wave: WaveResult, run_dir: Path) -> list[Path]:
    """Every captured worker of a wave, under workers/wave<N>-slot<S>-pid<P>/: its raw views
    and capture.json (written once, here; run.json and waves.jsonl refer to it); and each
    ``error`` worker's traceback in error.txt."""
    paths = []
    for w in wave.workers:
        if w.capture is not None:
            paths += write_raw(w.capture, run_dir / capture_dir(wave, w))
            write_capture(w.capture, run_dir / capture_ref(wave, w))
            paths.append(run_dir / capture_ref(wave, w))
    return paths + write_errors(wave, run_dir)


def write_errors(wave: WaveResult, run_dir: Path) -> list[Path]:
    """error.txt of each ``error`` worker of a wave that has none yet (a merge renumbers waves):
    the file the console and report.md point to for the whole traceback."""
    paths = []
    for w in wave.workers:
        path = run_dir / error_ref(wave, w)
        if w.verdict is Verdict.ERROR and w.detail and not path.is_file():
            write_atomic(path, printable(w.detail) + "\n")
            paths.append(path)
    return paths
