# Control: duckdb 1.0.0 (same pandas/numpy), the same program; both threads get their DataFrame.
# CPython 3.11.7.
from app import run

run()
