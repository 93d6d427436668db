# Control: loguru 0.7.0 (fixes Delgan/loguru#647: the writer thread survives a failing sink), the same
# program; complete() returns. CPython 3.11.7.
from job import run

run(0, fail=True)
