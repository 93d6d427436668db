"""Shape: busy and making syscalls (a healthy service or copy loop), for ``inspect --watch``.

Why it matters: one look says "busy" for this and for a spin alike; watching over time tells
them apart by the syscalls this one keeps making (writes to /dev/null in a tight loop).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os


def main() -> None:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.write(fd, b"x")
    print("ready", flush=True)
    block = b"x" * 4096
    while True:
        os.write(fd, block)


if __name__ == "__main__":
    main()
