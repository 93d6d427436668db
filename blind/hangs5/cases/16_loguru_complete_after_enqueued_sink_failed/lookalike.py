# Look-alike: loguru 0.6.0, the same enqueued sink and complete(); the collector is slow (16 s for the
# record) but works, so the writer thread confirms after 16 s.
from job import run

run(16, fail=False)
