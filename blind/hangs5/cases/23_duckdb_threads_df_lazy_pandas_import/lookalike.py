# Look-alike: duckdb 0.9.2, the same two threads with a cursor each and .df(); the second thread starts
# 16 s after the first (staggered batch), by when pandas is imported; both finish.
from app import run

run(stagger=16)
