"""polars #27396 (PyO3): DataFrame.to_pandas from several threads deadlocks in 1.40.1. A thread
takes the DataFrame's parking_lot RwLock and releases the GIL inside; another takes the GIL and
waits for the lock; the first then waits for the GIL to import pyarrow. Fixed in 1.41.1 (PR
27451), the control. Both warm the dtypes once-cells on one thread first: the issue's script
without that line still hangs now and then on 1.41.1 (a second, first-use race)."""

import subprocess
import sys

import _ready

CHILD = r"""
from concurrent.futures import ThreadPoolExecutor
import polars as pl
df = pl.DataFrame({"a": [5234.523] * 100000})
_ = df.dtypes
with ThreadPoolExecutor(10) as e:
    for f in [e.submit(df.to_pandas) for _ in range(100)]:
        f.result()
"""


def main() -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD])
    if _ready.control():
        sys.exit(child.wait(timeout=120))
    # every thread parked for a second: nothing can take the GIL, so this process watches
    _ready.settled(lambda: _ready.parked(child.pid), "deadlocked", timeout=60, stable=20)
    _ready.announce(child.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
