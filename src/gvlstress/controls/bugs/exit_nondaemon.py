"""Interpreter exit waits for every non-daemon thread (threading's shutdown joins them): a
worker left waiting on an Event nobody sets keeps the process alive forever after main
returns. Control: the worker is a daemon thread."""

import os
import threading

import _ready


def main() -> None:
    forgotten = threading.Event()
    threading.Thread(target=forgotten.wait, name="worker", daemon=_ready.control()).start()
    if not _ready.control():
        me = os.getpid()

        def watch() -> None:  # a daemon: it runs on while the interpreter waits at exit
            _ready.settled(lambda: _ready.in_futex(me) >= 2 and not first.is_alive(), "exiting")
            _ready.announce(me)

        first = threading.main_thread()
        threading.Thread(target=watch, daemon=True).start()


if __name__ == "__main__":
    main()
