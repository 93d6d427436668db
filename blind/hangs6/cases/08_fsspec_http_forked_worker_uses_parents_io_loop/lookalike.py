# Look-alike: same fork and read on fsspec 2025.3.0, with the documented workaround (the worker drops the
# inherited loop and IO thread); the object store takes 16 s to answer, then the worker finishes.
# aiohttp 3.9.5 on CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(delay=16.0, reset_loop=True)
