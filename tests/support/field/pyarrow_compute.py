"""Shape: pyarrow compute over a 1M-row table (sort, group_by, a parquet round trip in memory),
over and over: Arrow's CPU thread pool and the main thread inside Arrow's C++."""

from __future__ import annotations

import _field
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq


def main() -> None:
    rng = np.random.default_rng(6)
    n = 1_000_000
    table = pa.table({"k": rng.integers(0, 500, n), "v": rng.standard_normal(n)})

    def once() -> int:
        by = table.group_by("k").aggregate([("v", "mean"), ("v", "count")])
        ranked = pc.sort_indices(table, sort_keys=[("v", "descending")])
        sink = pa.BufferOutputStream()
        pq.write_table(table.take(ranked[:200_000]), sink)
        back = pq.read_table(pa.BufferReader(sink.getvalue()))
        return int(by.num_rows + back.num_rows)

    assert once() > 0
    _field.ready()
    while not _field.over():
        once()


if __name__ == "__main__":
    main()
