# fsspec/gcsfs#379 ("GCSFileSystem() hangs when called from multiple processes") and
# fsspec/filesystem_spec#835 (fork safety for async filesystems; fixed by fsspec/filesystem_spec#1790,
# "Automatically clean thread and loop on fork"): the parent reads through an async (HTTP) filesystem, which
# starts fsspec's IO event-loop thread; a forked worker creates a new filesystem, which reuses the inherited
# loop object, and sync() submits its coroutine to a loop whose thread does not exist in the child: it
# waits forever (polling its Event every second). The parent joins the worker.
# fsspec 2025.3.0 (aiohttp 3.9.5) on CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run()
