"""Raw dumps next to the report: py-spy JSON, native stacks text and /proc samples per process."""

from __future__ import annotations

from pathlib import Path

from gvlstress.knobs import redact_text
from gvlstress.model import Capture, WaveResult
from gvlstress.reporters.files import write_atomic


def write_capture(capture: Capture, directory: Path) -> list[Path]:
    """One file per raw view of one captured process."""
    paths = []
    for name, text in capture.raw.items():
        write_atomic(directory / name, redact_text(text))  # no rule spans a quote: JSON stays JSON
        paths.append(directory / name)
    return paths


def write(wave: WaveResult, run_dir: Path) -> list[Path]:
    """Every hung worker of a wave, under workers/wave<N>-slot<S>-pid<P>/."""
    paths = []
    for w in wave.workers:
        if w.capture is not None:
            d = run_dir / "workers" / f"wave{wave.index + 1}-slot{w.slot}-pid{w.pid}"
            paths += write_capture(w.capture, d)
    return paths
