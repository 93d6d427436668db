# psycopg/psycopg#685 ("Deadlock when using pipeline mode"): large INSERTs in pipeline mode with the
# pure-Python implementation: the client keeps sending queries (waiting for the socket to become writable)
# without reading the results the server sends back; the PostgreSQL backend blocks sending results the
# client does not read, stops reading, and neither side drains the other. The program repeats the batch until
# it sticks (the issue: about half of the runs). psycopg 3.1.17 (PSYCOPG_IMPL=python) on CPython 3.11.7,
# PostgreSQL 15 (Debian) as a child process.
import os

os.environ["PSYCOPG_IMPL"] = "python"
from common import run  # noqa: E402

run(pipeline=True)
