# Look-alike: CPython 3.11.7, the same class-wide lock; the root's slow metadata scan holds it for 16 s
# (children counted serially, no waiting on workers) while a worker waits for the lock to count a leaf;
# then both finish.
from tree import run

run(parallel=False, slow_root=16)
