"""Look-alike of pty_self_read: the process reads a pty master whose slave a live child holds (a
program that sleeps before it prints, as a slow command in a terminal does): healthy, it ends.
Prints `ready` before the read; the child writes after 60 s (the test kills it long before)."""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import subprocess


def main() -> None:
    master, slave = os.openpty()
    child = subprocess.Popen(["sh", "-c", "sleep 60; echo done"], stdout=slave, stderr=slave)
    os.close(slave)
    print("ready", flush=True)
    os.read(master, 1024)
    child.wait(timeout=30)


if __name__ == "__main__":
    main()
