"""Arrow #45214: a fragment's batches read through a Python file object, the loop left after the
first batch; at exit the interpreter is finalized while Arrow's I/O threads still read ahead, and
the static destructor of Arrow's global thread pool (`ThreadPool::Shutdown`, run by libc's exit
handlers after Py_FinalizeEx) waits forever for threads that are gone. No Python frame is left
(py-spy finds no interpreter); a native stack tool names it. It hangs on most exits, not all
(others abort or exit): the trigger retries until one hangs. Control: `use_threads=False`, the
documented workaround (no fixed release yet)."""

import os
import subprocess
import sys
import tempfile
import time

import _ready

CHILD = r"""
import sys
import pyarrow.dataset as ds
with open(sys.argv[1], "rb") as f:
    frag = ds.ParquetFileFormat().make_fragment(f)
    for batch in frag.to_batches(use_threads=sys.argv[2] == "threads"):
        break
print("exiting", flush=True)
"""
WRITE = r"""
import os, sys
import pyarrow as pa, pyarrow.parquet as pq
n = 500
pq.write_table(pa.table({"img": [os.urandom(200_000) for _ in range(n)], "i": list(range(n))}), sys.argv[1],
               row_group_size=50)
"""


def data() -> str:
    """The issue's file (100 MB, 10 row groups), written once beside the entry's venv and reused."""
    path = os.path.join(
        sys.prefix if os.access(sys.prefix, os.W_OK) else tempfile.gettempdir(), "arrow-45214.parquet"
    )
    if not os.path.exists(path):
        part = f"{path}.{os.getpid()}"
        subprocess.run([sys.executable, "-c", WRITE, part], check=True, timeout=300)
        os.replace(part, path)
    return path


ATTEMPTS = 12


def hung(child: "subprocess.Popen[bytes]") -> bool:
    """After the child's last line: every thread parked for a second (True), or it ended."""
    assert child.stdout is not None
    if child.stdout.readline() != b"exiting\n":
        return False
    deadline, run = time.monotonic() + 20.0, 0
    while run < 20 and time.monotonic() < deadline and child.poll() is None:
        run = run + 1 if _ready.parked(child.pid) else 0
        time.sleep(0.05)
    return run >= 20


def main() -> None:
    if _ready.control():
        done = subprocess.run([sys.executable, "-c", CHILD, data(), "no-threads"], timeout=120, check=False)
        sys.exit(done.returncode)
    path = data()
    for _ in range(ATTEMPTS):
        child = subprocess.Popen([sys.executable, "-c", CHILD, path, "threads"], stdout=subprocess.PIPE)
        if hung(child):
            _ready.announce(child.pid)
            _ready.forever()
        child.kill()
        child.wait()
    sys.exit(f"no exit hung in {ATTEMPTS} attempts")


if __name__ == "__main__":
    main()
