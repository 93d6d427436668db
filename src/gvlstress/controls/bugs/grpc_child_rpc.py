"""grpcio with fork support off (GRPC_ENABLE_FORK_SUPPORT=0, as applications set it to dodge the
1.52-1.55 prefork hangs): an RPC made in a forked child, while the parent's channel is alive,
never completes, not even at its own 0.5 s deadline: the child inherited gRPC's state but none
of its threads (timers, pollers), and waits in the completion queue's epoll_wait, re-armed every
~200 ms, for events only those threads would produce (doc/fork_support.md:
https://github.com/grpc/grpc/blob/master/doc/fork_support.md; https://github.com/grpc/grpc/issues/13464,
https://github.com/grpc/grpc/issues/13873, tracking https://github.com/grpc/grpc/issues/15334).
The app (a child of this program) forks; this program watches the app's child through /proc.
Control: the documented switch, GRPC_ENABLE_FORK_SUPPORT=1: the child's RPC fails in time."""

from __future__ import annotations

import contextlib
import os
import sys

import _ready


def rpc(channel: object) -> None:
    import grpc  # type: ignore[import-not-found,import-untyped,unused-ignore]

    with contextlib.suppress(grpc.RpcError):
        channel.unary_unary("/svc/Method")(b"", timeout=0.5)  # type: ignore[attr-defined]


def app() -> None:
    import grpc  # type: ignore[import-not-found,import-untyped,unused-ignore]

    channel = grpc.insecure_channel("127.0.0.1:1")  # alive across the fork; nobody serves port 1
    rpc(channel)
    pid = os.fork()
    if pid == 0:
        rpc(grpc.insecure_channel("127.0.0.1:1"))  # fork support off: never returns
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(status))


def stuck(app_pid: int) -> int | None:
    """The app's child when its one thread waits in epoll_wait while the app waits for it."""
    kids = _ready.children(app_pid)
    if len(kids) != 1 or _ready.call_of(app_pid) != _ready.NR["wait4"]:
        return None
    child = kids[0]
    ok = len(_ready.tids(child)) == 1 and _ready.call_of(child) in _ready.EPOLLS
    return child if ok else None


def main() -> None:
    if _ready.control():
        os.environ["GRPC_ENABLE_FORK_SUPPORT"] = "1"
    else:
        os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "0")
    if _ready.is_app() or _ready.control():
        app()
        return
    proc = _ready.app()
    # 20 polls (1 s) in a row: past the RPC's own 0.5 s deadline
    _ready.settled(lambda: stuck(proc.pid) is not None, "the child's RPC stuck", stable=20)
    child = stuck(proc.pid)
    assert child is not None
    _ready.announce(child)
    _ready.forever()


if __name__ == "__main__":
    main()
