"""Shape: the built-in rayon loader (gvlstress_native) at full oversubscription: RAYON_NUM_THREADS
=16 on a 2-core machine, batches pulled in a loop (the GIL released inside each batch)."""

from __future__ import annotations

import os

os.environ["RAYON_NUM_THREADS"] = "16"

import _field
import gvlstress_native


def main() -> None:
    loader = gvlstress_native.Loader(seed=1, samples=8, region_len=16384, batch_size=128)
    loader.next_batch()  # rayon's pool starts here
    assert gvlstress_native.current_num_threads() == 16
    _field.ready()
    while not _field.over():
        loader.next_batch()


if __name__ == "__main__":
    main()
