"""Shape: a long checkpoint write: a 64 MB numpy state saved in 8 MB chunks to a file, each chunk
flushed and fsynced (a slow disk), then renamed over the last checkpoint, over and over."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import _field
import numpy as np


def save(state: np.ndarray, path: Path) -> None:
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as fh:
        np.lib.format.write_array_header_1_0(fh, np.lib.format.header_data_from_array_1_0(state))
        for chunk in np.array_split(state, 8):
            fh.write(chunk.tobytes())
            fh.flush()
            os.fsync(fh.fileno())
    os.replace(tmp, path)


def main() -> None:
    state = np.random.default_rng(8).standard_normal(8 << 20)  # 64 MB of weights
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "model.npy"
        save(state, path)
        _field.ready()
        while not _field.over():
            state *= 0.999  # a training step
            save(state, path)
        assert np.load(path).shape == state.shape


if __name__ == "__main__":
    main()
