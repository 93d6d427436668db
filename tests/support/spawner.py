"""A ten-line target whose batches start processes the ways real loaders do, recording their
pids in `out`: a plain child (`plain`), or a grandchild that daemonizes itself and leaves every
process tree and session (`daemon`); or a child that writes the environment it was born with
(`env`: and whether its parent, the worker, has the delay layer mapped). With `hang`, the worker then waits forever."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator

DAEMON = """
import os, sys
if os.fork():
    os._exit(0)
os.setsid()
if os.fork():
    os._exit(0)
with open(sys.argv[1], "a") as fh:
    fh.write(f"{os.getpid()}\\n")
os.execvp("sleep", ["sleep", "1000"])
"""


def batches(mode: str = "plain", out: str = "", slot: int = 0, hang: bool = False) -> Iterator[bytes]:
    record = os.path.join(out, f"pids-{slot}")
    if mode == "env":
        dump = (
            "import json, os, sys; maps = open(f'/proc/{os.getppid()}/maps').read();"
            "json.dump({'env': dict(os.environ), 'parent_has_layer': 'libgvldelay' in maps}, open(sys.argv[1], 'w'))"
        )
        target = os.path.join(out, f"child-env-{slot}.json")
        subprocess.run([sys.executable, "-c", dump, target], check=True, timeout=30)
    elif mode == "plain":
        child = subprocess.Popen(["sleep", "1000"])
        with open(record, "a") as fh:
            fh.write(f"{child.pid}\n")
    else:
        subprocess.run([sys.executable, "-c", DAEMON, record], check=True, timeout=30)
    yield b"x"
    yield b"y"
    if hang:
        threading.Event().wait()
