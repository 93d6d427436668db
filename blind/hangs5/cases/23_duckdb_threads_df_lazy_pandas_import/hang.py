# duckdb/duckdb#8098 ("Multiple Python threads causing a hang": the multiple-threads example of the docs,
# two threads each take a cursor of one connection and call .df(), hangs indefinitely): the first .df()
# makes DuckDB import pandas/numpy lazily; one thread runs that import (and needs the GIL) while the
# other waits inside DuckDB for the import (holding the GIL), a GIL vs DuckDB-internal lock cycle of two
# threads. duckdb 0.9.2 (pandas 2.1.4, numpy 1.26.4) on CPython 3.11.7.
from app import run

run()
