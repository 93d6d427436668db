# Look-alike: the same inserts on psycopg 3.1.17 without pipeline mode, into a table whose statement
# trigger sleeps 0.08 s per INSERT (a slow server): 20 batches of 10 rows take about 16 s.
# CPython 3.11.7, PostgreSQL 15.
import os

os.environ["PSYCOPG_IMPL"] = "python"
from common import run  # noqa: E402

run(pipeline=False, pause=0.08)
