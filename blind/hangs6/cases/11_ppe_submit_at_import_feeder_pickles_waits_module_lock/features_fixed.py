# The fix: no pool work at import time; the table is built on first use, after the import has finished.
from concurrent.futures import ProcessPoolExecutor

TABLE: list[int] = []


def bucket(x: int) -> int:
    return (x * 2654435761) % 97


def table() -> list[int]:
    if not TABLE:
        with ProcessPoolExecutor(max_workers=1) as pool:
            TABLE.extend(pool.map(bucket, range(8)))
    return TABLE
