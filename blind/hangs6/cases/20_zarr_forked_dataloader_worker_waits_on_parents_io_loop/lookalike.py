# Look-alike: the same forked worker on zarr 3.0.2 with the workaround (the worker resets the inherited loop),
# whose training steps take 16 s in all; the parent joins it meanwhile. CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(reset_loop=True, compute_seconds=16.0)
