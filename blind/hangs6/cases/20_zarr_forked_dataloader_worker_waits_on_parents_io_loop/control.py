# Control: the fixed release zarr 3.0.3 (#2815: os.register_at_fork resets the IO loop and thread in the
# child); the worker's reads start a fresh IO thread. CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run()
