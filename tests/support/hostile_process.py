"""A process whose every name is hostile, for `gvlstress inspect` to look at.

``python hostile_process.py HEXSPEC [ARG...]``: HEXSPEC is hex of JSON with hex-encoded bytes
for ``comm`` (its main thread's name), ``threads`` (names of threads that wait on an event) and
``dir`` (a directory name created under ``base``, where a FIFO is made and read). The ARGs are
ignored: they are there so that the command line holds what the test wants it to. Prints
"ready" once every thread is named; then the main thread blocks in read() on the FIFO (it holds
the write end too, so the read never ends).
"""

from __future__ import annotations

import json
import os
import sys
import threading


def _name(tid: int, name: bytes) -> None:
    with open(f"/proc/self/task/{tid}/comm", "wb") as fh:
        fh.write(name[:15])


def main() -> None:
    spec = json.loads(bytes.fromhex(sys.argv[1]))
    threads = [bytes.fromhex(n) for n in spec["threads"]]
    named = threading.Barrier(len(threads) + 1)
    forever = threading.Event()

    def wait(name: bytes) -> None:
        _name(threading.get_native_id(), name)
        named.wait()
        forever.wait()

    for name in threads:
        threading.Thread(target=wait, args=(name,), daemon=True).start()
    _name(threading.get_native_id(), bytes.fromhex(spec["comm"]))
    named.wait()
    where = os.path.join(os.fsencode(spec["base"]), bytes.fromhex(spec["dir"]))
    os.makedirs(where, exist_ok=True)
    os.chdir(where)
    os.mkfifo(b"fifo")
    fd = os.open(b"fifo", os.O_RDWR)  # a writer of our own: the read below never sees EOF
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    os.read(fd, 1)


if __name__ == "__main__":
    main()
