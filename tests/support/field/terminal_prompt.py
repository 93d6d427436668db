"""Shape: a child waiting at a prompt on its own terminal (a pty: its controlling terminal, as
`ssh`, `sudo` or an interactive tool have) while the parent reads the terminal's output."""

from __future__ import annotations

import os
import pty
import select
import sys

import _field


def main() -> None:
    pid, master = pty.fork()
    if pid == 0:  # the child: stdin, stdout and stderr are the terminal
        sys.stdout.write("Password: ")
        sys.stdout.flush()
        sys.stdin.readline()  # waits for someone to type
        os._exit(0)
    seen = b""
    while b"Password:" not in seen:
        seen += os.read(master, 1024)
    _field.settle(lambda: _field.in_calls(pid, ["read"]), "the child at its prompt")
    _field.ready()
    while not _field.over():
        readable, _, _ = select.select([master], [], [], _field.left())
        if readable:
            os.read(master, 1024)
    os.write(master, b"hunter2\n")
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


if __name__ == "__main__":
    main()
