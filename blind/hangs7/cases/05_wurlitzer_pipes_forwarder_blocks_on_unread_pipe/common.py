import ctypes
import os
import sys

from wurlitzer import PIPE, pipes

libc = ctypes.CDLL(None)
c_stdout = ctypes.c_void_p.in_dll(libc, "stdout")
READY_FD = os.dup(1)                                  # the real stdout, for the `ready` line


def native_report(nbytes: int, seconds: int) -> None:
    """Stands for a C library that prints its report on C-level stdout (and works for `seconds`)."""
    line = b"x" * 99 + b"\n"
    for _ in range(nbytes // 100):
        libc.fputs(line, c_stdout)
    libc.fflush(c_stdout)
    os.write(READY_FD, b"ready\n")
    if seconds:
        libc.sleep(seconds)


def run(nbytes: int, seconds: int) -> None:
    with pipes(stdout=PIPE, stderr=PIPE) as (out, err):
        native_report(nbytes, seconds)
    report = out.read()                               # read the captured output after the block
    os.write(READY_FD, f"captured {len(report)} chars\n".encode())
