"""Raw dumps next to the report: py-spy JSON, native stacks text and /proc samples per process,
and the merged capture that run.json refers to. (Tool output was redacted when it was read.)"""

from __future__ import annotations

from pathlib import Path

from gvlstress.model import Capture, WaveResult
from gvlstress.reporters.files import write_atomic
from gvlstress.reporters.json_report import capture_dir, capture_ref, write_capture


def write_raw(capture: Capture, directory: Path) -> list[Path]:
    """One file per raw view of one captured process."""
    paths = []
    for name, text in capture.raw.items():
        write_atomic(directory / name, text)
        paths.append(directory / name)
    return paths


def write(wave: WaveResult, run_dir: Path) -> list[Path]:
    """Every captured worker of a wave, under workers/wave<N>-slot<S>-pid<P>/: its raw views
    and capture.json (written once, here; run.json and waves.jsonl refer to it)."""
    paths = []
    for w in wave.workers:
        if w.capture is not None:
            paths += write_raw(w.capture, run_dir / capture_dir(wave, w))
            write_capture(w.capture, run_dir / capture_ref(wave, w))
            paths.append(run_dir / capture_ref(wave, w))
    return paths
