"""pyzmq: Context.term() with the default LINGER (-1, forever) blocks until every queued message
has been sent; the PULL peer it was for has exited, so the message never leaves and term() never
returns (zmq_ctx_term(3), zmq_setsockopt(3) ZMQ_LINGER; https://github.com/zeromq/pyzmq/issues/102
"Context.term() hangs"; https://github.com/zeromq/libzmq/issues/1247 "default LINGER value (block
forever) is insane", defaults kept by https://github.com/zeromq/libzmq/pull/1258). A server child
receives one message and exits; the client child (the app) sends a second, closes its socket and
calls term(); this program reaps the server before the client sends, and watches through /proc.
Control: LINGER=0 on the socket (the documented way out): term() drops the message and returns."""

from __future__ import annotations

import socket
import subprocess
import sys

import _ready
import zmq  # type: ignore[import-not-found,import-untyped,unused-ignore]


def server(endpoint: str) -> None:
    ctx = zmq.Context()
    s = ctx.socket(zmq.PULL)
    s.bind(endpoint)
    s.recv()
    s.close(linger=0)
    ctx.term()


def client(endpoint: str, linger: int) -> None:
    ctx = zmq.Context()
    push = ctx.socket(zmq.PUSH)
    push.setsockopt(zmq.LINGER, linger)
    push.connect(endpoint)
    push.send(b"first")  # the server takes it and exits
    sys.stdin.readline()  # this program says when the server is gone
    push.send(b"second")  # queued: no peer will take it
    push.close()  # linger -1: the socket lives on in the context's reaper thread
    ctx.term()  # the app: waits for 'second' to be sent, forever


def main() -> None:
    if _ready.is_app():
        role, endpoint, linger = sys.argv[2:5]
        if role == "server":
            server(endpoint)
        else:
            client(endpoint, int(linger))
        return
    with socket.socket() as s:  # a free port for the server
        s.bind(("127.0.0.1", 0))
        endpoint = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    srv = _ready.app("server", endpoint, "0")
    script = [sys.executable, sys.argv[0], "_app", "client", endpoint, "0" if _ready.control() else "-1"]
    app = subprocess.Popen(script, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    if srv.wait(timeout=60) != 0:
        sys.exit(3)
    assert app.stdin is not None
    app.stdin.write(b"go\n")
    app.stdin.flush()
    if _ready.control():
        sys.exit(app.wait(timeout=60))
    _ready.settled(
        lambda: _ready.call_of(app.pid) in _ready.POLLS and len(_ready.tids(app.pid)) >= 3,
        "term() blocked",
        stable=10,
    )
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
