# python/cpython#87634 ("functools.cached_property incorrectly locks the entire descriptor on class instead
# of per-instance locking"; the lock was removed in 3.12) and h5py/h5py#2064 ("Deadlock in
# Dataset._extent_type" through that class-wide lock): before 3.12 one RLock per cached_property guards
# the property for ALL instances. The root partition's row_count holds it while it counts its children
# in a thread pool and waits for them; each worker needs the same lock for its child's row_count.
# CPython 3.11.7 (functools, concurrent.futures).
from tree import run

run(parallel=True)
