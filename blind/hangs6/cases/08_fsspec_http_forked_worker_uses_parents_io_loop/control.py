# Control: the fixed release fsspec 2025.3.2 (filesystem_spec#1790 resets the loop and IO thread after
# fork); the worker's read starts a fresh IO thread. aiohttp 3.9.5 on CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run()
