"""Shape: a process reads the master of a pty whose child has exited, but it still holds the
slave itself, so no hang-up (EIO) ever comes: a self-wait through a terminal.

The child (`true`, its output on the slave) is reaped before the read. Prints `ready` once the
read waits (a helper thread reads /proc).
"""

import os
import subprocess

import handshake


def main() -> None:
    master, slave = os.openpty()
    subprocess.run(["true"], stdout=slave, stderr=slave, check=True, timeout=30)
    handshake.ready_once_in(handshake.READ)
    os.read(master, 1024)  # the slave is still open here: no EOF, no EIO


if __name__ == "__main__":
    main()
