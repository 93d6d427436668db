"""A System V semaphore (value 1) taken without SEM_UNDO by a child, then waited on by this
process in semop(-1), untimed. `dead`: the child exits holding it (a crash, a kill): nobody will
post it, the wait is forever. `alive`: the child holds it and posts it 16 s later (healthy).
Prints `sem ID` (the test removes the set), then `ready` once the child holds it."""

# ruff: noqa: T201  (printing `sem ID` and `ready` is the protocol)
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import time

IPC_PRIVATE, IPC_CREAT, SETVAL = 0, 0o1000, 16


class Sembuf(ctypes.Structure):
    _fields_ = [("sem_num", ctypes.c_ushort), ("sem_op", ctypes.c_short), ("sem_flg", ctypes.c_short)]


libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def semop(semid: int, op: int) -> None:
    buf = Sembuf(0, op, 0)  # no SEM_UNDO: the kernel will not give it back for a dead taker
    if libc.semop(semid, ctypes.byref(buf), 1) != 0:
        raise OSError(ctypes.get_errno(), "semop")


def main() -> None:
    semid = libc.semget(IPC_PRIVATE, 1, IPC_CREAT | 0o600)
    if semid < 0 or libc.semctl(semid, 0, SETVAL, 1) != 0:
        raise OSError(ctypes.get_errno(), "semget")
    print(f"sem {semid}", flush=True)
    r, w = os.pipe()
    child = os.fork()
    if child == 0:
        semop(semid, -1)
        os.write(w, b"x")
        if sys.argv[1:] == ["alive"]:
            time.sleep(16)
            semop(semid, 1)
        os._exit(0)
    os.read(r, 1)  # the child holds it
    if sys.argv[1:] != ["alive"]:
        os.waitpid(child, 0)  # and is gone
    print("ready", flush=True)
    semop(semid, -1)
    print("got it", flush=True)


if __name__ == "__main__":
    main()
