"""Shape: a busy hang -- a handler thread polls a silent pipe and its child with no timeout,
at 100% CPU, while main waits forever in join().

Why it matters: it burns CPU making tens of thousands of poll() and wait4() calls a second, none
a read or a write and none that sleeps: `--watch` must see the syscalls (kernel time, the calls
it is caught in) and not call it "no syscall" (a pure spin). Prints `ready` once the handler
has started.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import select
import subprocess
import sys
import threading


def main() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(100000)"])
    r, _w = os.pipe()
    poller = select.poll()
    poller.register(r, select.POLLIN)
    started = threading.Event()

    def handler() -> None:
        started.set()
        while True:  # the bug: timeout 0, so nothing ever sleeps
            if poller.poll(0):
                break
            if os.waitpid(child.pid, os.WNOHANG)[0]:
                break

    t = threading.Thread(target=handler, name="handler")
    t.start()
    started.wait(10)
    print("ready", flush=True)
    t.join()


if __name__ == "__main__":
    main()
