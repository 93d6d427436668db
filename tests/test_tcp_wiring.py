"""TCP connections followed to who can end a wait on them: the kernel's table parsed (recorded
and live, in this process) and a connection not accepted yet tied to the listener whose accept
queue holds it, so a wait on it is judged by whoever holds that listener."""

from __future__ import annotations

import os
import socket
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from gvlstress.judge import names
from gvlstress.model import ProbeKind
from gvlstress.model.waitfor import End
from gvlstress.model.wiring import Endpoint
from gvlstress.probes import tcp, wiring
from lookshapes import READ, SLEEP, Proc, Th, World, held

# /proc/net/tcp of a process that connected to its own listener and never accepted: the
# listener (inode 3507880), the client's side (3507881), and the server's side, in the accept
# queue with no inode yet (18 bytes of request queued on it)
RECORDED = """\
  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:81E1 00000000:0000 0A 00000000:00000001 00:00000000 00000000     0        0 3507880 2 0 100 0 0 10 0
   1: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1206 1 0 100 0 0 10 0
   2: 0100007F:8B7C 0100007F:81E1 01 00000000:00000000 00:00000000 00000000     0        0 3507881 1 0 20 0 0 11 -1
   3: 0100007F:81E1 0100007F:8B7C 01 00000000:00000012 00:00000000 00000000     0        0 0 1 0 20 4 30 10 -1
   4: 0100007F:9000 0100007F:8B7D 06 00000000:00000000 03:00000000 00000000     0        0 0 3 0
"""


def test_a_connection_in_an_accept_queue_is_tied_to_its_listener() -> None:
    eps = {e.inode: e for e in tcp.parse_tcp(RECORDED)}
    client = eps[3507881]
    assert client.peer is not None
    assert client.peer < 0
    queued = eps[client.peer]
    assert (queued.pending, queued.local, queued.rqueue) == (3507880, "127.0.0.1:33249", 18)
    assert eps[3507880].listener
    assert eps[3507880].pending is None
    assert len(eps) == 4  # the TIME_WAIT line (no inode, no socket left) is dropped


def test_a_queued_connection_to_a_wildcard_listener_finds_it() -> None:
    text = RECORDED.replace("0100007F:81E1 00000000:0000 0A", "00000000:81E1 00000000:0000 0A")
    eps = {e.inode: e for e in tcp.parse_tcp(text)}
    assert eps[eps[3507881].peer or 0].pending == 3507880


@pytest.fixture
def self_call() -> Iterator[tuple[socket.socket, socket.socket]]:
    """This process connected to its own listener and did not accept: (listener, client)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    client = socket.create_connection(server.getsockname())
    try:
        yield server, client
    finally:
        client.close()
        server.close()


def test_a_live_connection_not_accepted_yet_leads_to_the_listeners_holder(
    self_call: tuple[socket.socket, socket.socket],
) -> None:
    server, client = self_call
    target = f"socket:[{os.fstat(client.fileno()).st_ino}]"
    w = wiring.wiring([os.getpid()], [target])
    ep = w.sockets[os.fstat(client.fileno()).st_ino]
    assert ep.peer is not None
    queued = w.sockets[ep.peer]
    assert queued.pending == os.fstat(server.fileno()).st_ino
    listener = f"socket:[{queued.pending}]"
    assert [(h.pid, h.fd) for h in w.holders[listener]] == [(os.getpid(), server.fileno())]


UNIX_LISTENER, UNIX_CLIENT = 3660860, 3660861
C, S = 700, 701
CLIENT, LISTENER, QUEUED, ACCEPTED, KEPT = 11, 12, -1, 13, 14
TCP = {
    CLIENT: Endpoint(CLIENT, "tcp", "ESTABLISHED", "127.0.0.1:5000", "127.0.0.1:8000", peer=QUEUED),
    QUEUED: Endpoint(
        QUEUED, "tcp", "ESTABLISHED", "127.0.0.1:8000", "127.0.0.1:5000", peer=CLIENT, pending=LISTENER
    ),
    LISTENER: Endpoint(LISTENER, "tcp", "LISTEN", "127.0.0.1:8000", "0.0.0.0:0", listener=True),
    ACCEPTED: Endpoint(ACCEPTED, "tcp", "ESTABLISHED", "127.0.0.1:8000", "127.0.0.1:5001", peer=KEPT),
    KEPT: Endpoint(KEPT, "tcp", "ESTABLISHED", "127.0.0.1:5001", "127.0.0.1:8000", peer=ACCEPTED),
}


def reads(pid: int, inode: int, fd: int = 3) -> Th:
    return Th(pid, READ.format(fd=fd), fd=f"socket:[{inode}]")


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        pytest.param(
            World((Proc(C, (reads(C, CLIENT),)),), TCP, held(f"socket:[{LISTENER}]", (C, 4, "rw"))),
            {C: (ProbeKind.DEADLOCK, names.SELF_FD, End.SELF)},
            id="a server requests itself: only it holds the listener, and it reads",
        ),
        pytest.param(
            World(
                (Proc(C, (reads(C, UNIX_CLIENT),)),),
                {
                    UNIX_CLIENT: Endpoint(UNIX_CLIENT, "unix", "ESTABLISHED", peer=-7),
                    -7: Endpoint(-7, "unix", "CONNECTING", peer=UNIX_CLIENT, pending=UNIX_LISTENER),
                    UNIX_LISTENER: Endpoint(UNIX_LISTENER, "unix", "LISTEN", listener=True),
                },
                held(f"socket:[{UNIX_LISTENER}]", (C, 4, "rw")),
            ),
            {C: (ProbeKind.DEADLOCK, names.SELF_FD, End.SELF)},
            id="a Python process (SIGINT caught) calls its own unix listener: a queued connection is no wakeup fd",
        ),
        pytest.param(
            World(
                (Proc(C, (reads(C, CLIENT), Th(C + 1, SLEEP))),),
                TCP,
                held(f"socket:[{LISTENER}]", (C, 4, "rw")),
            ),
            {C: (ProbeKind.IDLE, None, End.OUTSIDE)},
            id="look-alike: another thread of it may still accept",
        ),
        pytest.param(
            World(
                (Proc(C, (reads(C, CLIENT),)), Proc(S, (reads(S, ACCEPTED),), parent=C)),
                TCP,
                {
                    **held(f"socket:[{LISTENER}]", (S, 3, "rw")),
                    **held(f"socket:[{KEPT}]", (C, 5, "rw")),
                    **held(f"socket:[{ACCEPTED}]", (S, 4, "rw")),
                    **held(f"socket:[{CLIENT}]", (C, 3, "rw")),
                },
            ),
            {
                C: (ProbeKind.DEADLOCK, names.WAIT_CYCLE, End.CYCLE),
                S: (ProbeKind.DEADLOCK, names.WAIT_CYCLE, End.CYCLE),
            },
            id="the server reads a kept-alive connection, the client waits on one it never accepts",
        ),
        pytest.param(
            World(
                (Proc(C, (reads(C, CLIENT),)), Proc(S, (Th(S, SLEEP),), parent=C)),
                TCP,
                held(f"socket:[{LISTENER}]", (S, 3, "rw")),
            ),
            {C: (ProbeKind.IDLE, None, End.OUTSIDE), S: (ProbeKind.IDLE, None, End.OUTSIDE)},
            id="look-alike: the server is busy elsewhere (a timer) and may still accept",
        ),
    ],
)
def test_a_wait_on_a_connection_not_accepted_yet_is_judged_by_the_listeners_holders(
    world: World, expected: dict[int, tuple[ProbeKind, str | None, End]]
) -> None:
    judged = world.judged()
    got = {
        p: (j.finding.kind, j.named.pattern if j.named else None, j.waitfor.end if j.waitfor else None)
        for p, j in judged.items()
    }
    assert got == expected


MASTER = "ptmx:[5]"


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        pytest.param(
            World(
                (Proc(C, (Th(C, READ.format(fd=3), fd=MASTER),)),), holders=held("/dev/pts/5", (C, 4, "rw"))
            ),
            {C: (ProbeKind.DEADLOCK, names.SELF_FD, End.SELF)},
            id="it reads the master and holds the slave itself: no hang-up will come",
        ),
        pytest.param(
            World(
                (Proc(C, (Th(C, READ.format(fd=3), fd=MASTER),)), Proc(S, (Th(S, SLEEP),), parent=C)),
                holders=held("/dev/pts/5", (S, 1, "w")),
            ),
            {C: (ProbeKind.IDLE, None, End.OUTSIDE), S: (ProbeKind.IDLE, None, End.OUTSIDE)},
            id="look-alike: a live child holds the slave and may still write",
        ),
    ],
)
def test_a_read_of_a_pty_master_is_judged_by_whoever_holds_its_slave(
    world: World, expected: dict[int, tuple[ProbeKind, str | None, End]]
) -> None:
    got = {
        p: (j.finding.kind, j.named.pattern if j.named else None, j.waitfor.end if j.waitfor else None)
        for p, j in world.judged().items()
    }
    assert got == expected


def _diag(inode: int, state: int, *attrs: tuple[int, bytes]) -> bytes:
    """One sock_diag reply message for a unix socket (unix_diag_msg, then its attributes)."""
    body = struct.pack("=BBBBIII", socket.AF_UNIX, socket.SOCK_STREAM, state, 0, inode, 0, 0)
    for kind, payload in attrs:
        attr = struct.pack("=HH", 4 + len(payload), kind) + payload
        body += attr + b"\0" * (-len(attr) % 4)
    return struct.pack("=IHHII", 16 + len(body), 20, 2, 1, 0) + body


# the listener (state LISTEN, one connection queued: its client's inode among its "icons"), the
# client (connected, no peer socket yet), then the dump's end
DUMP = (
    _diag(UNIX_LISTENER, 10, (3, struct.pack("=I", UNIX_CLIENT)), (4, struct.pack("=II", 1, 4)))
    + _diag(UNIX_CLIENT, 1, (2, struct.pack("=I", 0)), (4, struct.pack("=II", 0, 0)))
    + struct.pack("=IHHII", 20, 3, 2, 1, 0)
    + b"\0" * 4
)


def test_a_unix_connection_in_an_accept_queue_is_tied_to_its_listener() -> None:
    eps, done = wiring.parse_unix_diag(DUMP)
    by = {e.inode: e for e in eps}
    assert done
    client = by[UNIX_CLIENT]
    assert client.peer is not None
    assert client.peer < 0  # the queued side has no socket file yet: a stand-in
    assert (by[client.peer].pending, by[client.peer].peer) == (UNIX_LISTENER, UNIX_CLIENT)
    assert by[UNIX_LISTENER].listener


def test_a_live_unix_connection_not_accepted_yet_leads_to_the_listeners_holder(tmp_path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "s"))
    server.listen(4)
    client = socket.socket(socket.AF_UNIX)
    client.connect(str(tmp_path / "s"))
    try:
        mine = os.fstat(client.fileno()).st_ino
        w = wiring.wiring([os.getpid()], [f"socket:[{mine}]"])
        peer = w.sockets[mine].peer
        assert peer is not None
        assert w.sockets[peer].pending == os.fstat(server.fileno()).st_ino
        holders = w.holders[f"socket:[{w.sockets[peer].pending}]"]
        assert [(h.pid, h.fd) for h in holders] == [(os.getpid(), server.fileno())]
    finally:
        client.close()
        server.close()
