"""The genvarloader target's shared constants: its modes and the synthetic dataset's defaults.
Both halves (the worker's `gvl`, the supervisor's `gvl_support`) import this;
neither imports the other. Stdlib only: the worker imports it."""

from __future__ import annotations

from typing import Any

MODES = ("plain", "threaded")
LOADERS = ("none", "fork", "spawn", "forkserver")
"""``loader``: after one warm batch in the worker, the batches come from a loader child started
with this multiprocessing context (a DataLoader with workers, made inside the worker): ``fork``
after the worker's rayon pool exists is genvarloader #263's mechanism A."""

DATA_DEFAULTS: dict[str, Any] = {
    "seed": 0,
    "contigs": 2,
    "contig_len": 1_000_000,
    "samples": 8,
    "variants_per_contig": 10_000,
    "regions": 500,
    "region_len": 2000,
    "tracks": False,
}

BUILT_IN_TRACKS = ("signal",)
"""The synthetic dataset's tracks when it is built with tracks (``gvl_scripts/build_dataset.py``
names its one bigWig track so): ``-o tracks=NAMES`` picks among these."""


OPEN_KEYS = ("jitter", "rc_neg", "deterministic")
"""``Dataset.open`` keywords a user's dataset may be opened with (``-o jitter=2``)."""
SEQS = ("haplotypes", "reference", "annotated", "variants", "none")
"""``with_seqs`` kinds (``-o seqs=annotated``); ``none``: tracks only."""
USER_KEYS = ("dataset", "reference", "seqs", "output_length", *OPEN_KEYS)
"""Options of a user's own dataset (``-o dataset=PATH``), beside the run options any dataset takes."""
