# Control: the fixed release psycopg 3.1.18 (pure-Python implementation, pipeline mode): the same batches
# complete. CPython 3.11.7, PostgreSQL 15.
import os

os.environ["PSYCOPG_IMPL"] = "python"
from common import run  # noqa: E402

run(pipeline=True)
