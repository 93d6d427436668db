"""Raw dumps next to the report: py-spy JSON, native stacks text and /proc samples per worker."""

from __future__ import annotations

from pathlib import Path

from gvlstress.model import WaveResult
from gvlstress.reporters.files import write_atomic


def worker_dir(run_dir: Path, wave: int, slot: int, pid: int | None) -> Path:
    return run_dir / "workers" / f"wave{wave + 1}-slot{slot}-pid{pid}"


def write(wave: WaveResult, run_dir: Path) -> list[Path]:
    paths = []
    for w in wave.workers:
        if w.capture is None:
            continue
        d = worker_dir(run_dir, wave.index, w.slot, w.pid)
        for name, text in w.capture.raw.items():
            write_atomic(d / name, text)
            paths.append(d / name)
    return paths
