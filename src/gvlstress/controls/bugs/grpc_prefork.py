"""grpcio 1.52.0 (yanked for this): os.fork() in a process that has made an RPC never returns.
gRPC's pthread_atfork prepare handler waits for its EventEngine thread pool to go idle, in a
timed wait it re-arms every 3 s forever ("Waiting for thread pool to idle before forking"),
while a pool thread sits in the poller's 24 h epoll_wait on an eventfd nobody writes, so it
never sees the fork request (https://github.com/grpc/grpc/issues/31885, the yank:
https://github.com/grpc/grpc/issues/32306, https://github.com/grpc/grpc/issues/32163). The app (a
child of this program) forks; this program watches it through /proc.
Control: the same program under grpcio 1.53.0 (the fixed release): fork() returns."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

import _ready


def app() -> None:
    import grpc  # type: ignore[import-not-found,import-untyped,unused-ignore]

    channel = grpc.insecure_channel("127.0.0.1:1")  # nobody serves port 1: UNAVAILABLE at once
    with contextlib.suppress(grpc.RpcError):
        channel.unary_unary("/svc/Method")(b"", timeout=0.5)
    os.write(1, b"forking\n")  # to this program, which watches from then on
    pid = os.fork()  # 1.52.0: never returns
    if pid == 0:
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(status))


def blocked(pid: int) -> bool:
    """The main thread in a futex wait (the prepare handler's), a pool thread in epoll_wait, and
    no child: fork() has not returned."""
    pollers = [t for t in _ready.tids(pid) if _ready.call_of(pid, t) in _ready.EPOLLS]
    return _ready.call_of(pid) == _ready.FUTEX and bool(pollers) and not _ready.children(pid)


def main() -> None:
    if _ready.is_app() or _ready.control():
        app()
        return
    proc = _ready.app(stdout=subprocess.PIPE)
    if _ready.line(proc) != "forking":
        sys.exit(3)
    _ready.settled(lambda: blocked(proc.pid), "fork() blocked in its prepare handler", stable=20)
    _ready.announce(proc.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
