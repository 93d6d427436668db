import time
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property

pool = ThreadPoolExecutor(max_workers=4)


class Partition:
    """A dataset partition; its row count is computed once (cached) from its children."""

    def __init__(self, name, children=(), rows=0, parallel=True, slow=0.0):
        self.name, self.children, self._rows = name, list(children), rows
        self.parallel, self.slow = parallel, slow

    @cached_property
    def row_count(self):
        if self.slow:
            time.sleep(self.slow)                 # a slow metadata scan
        if not self.children:
            return self._rows
        if self.parallel:                         # count the children's partitions concurrently
            return sum(pool.map(lambda c: c.row_count, self.children))
        return sum(c.row_count for c in self.children)


def run(parallel, slow_root=0.0):
    leaves = [Partition(f"part-{i}", rows=1000 * i) for i in range(4)]
    root = Partition("dataset", leaves, parallel=parallel, slow=slow_root)
    if slow_root:                                 # a worker already counts one leaf meanwhile
        fut = pool.submit(lambda: leaves[0].row_count)
    print("ready", flush=True)
    print("rows:", root.row_count, flush=True)
    pool.shutdown()
