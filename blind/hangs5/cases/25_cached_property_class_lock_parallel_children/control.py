# Control: CPython 3.12.1, where cached_property no longer takes a lock (gh-87634, PR #101890); the
# same program completes.
from tree import run

run(parallel=True)
