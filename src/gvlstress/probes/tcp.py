"""TCP connections as the kernel's table shows them (``/proc/PID/net/tcp{,6}``, the process's own
network namespace; no attach): state, queues, and, on loopback, the socket at the other side;
a connection still in a listener's accept queue, which no process holds yet, tied to that
listener (whoever holds it is who must accept). Parsers are pure functions over text, tested on
recorded input and live."""

from __future__ import annotations

import socket
from dataclasses import replace
from pathlib import Path

from gvlstress.model.wiring import Endpoint

TCP_STATES = {
    1: "ESTABLISHED",
    2: "SYN_SENT",
    3: "SYN_RECV",
    4: "FIN_WAIT1",
    5: "FIN_WAIT2",
    6: "TIME_WAIT",
    7: "CLOSE",
    8: "CLOSE_WAIT",
    9: "LAST_ACK",
    10: "LISTEN",
    11: "CLOSING",
}


def _addr(hexaddr: str, family: str) -> str:
    """'0100007F:1F90' -> '127.0.0.1:8080' (the kernel prints each 32-bit word in host order)."""
    host, _, port = hexaddr.partition(":")
    raw = bytes.fromhex(host)
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
    ip = socket.inet_ntop(socket.AF_INET6 if family == "tcp6" else socket.AF_INET, words)
    return f"[{ip}]:{int(port, 16)}" if family == "tcp6" else f"{ip}:{int(port, 16)}"


def parse_tcp(text: str, family: str = "tcp") -> tuple[Endpoint, ...]:
    """``/proc/net/tcp`` (or tcp6): one Endpoint per socket with an inode; junk lines skipped."""
    out: list[Endpoint] = []
    for line in text.splitlines()[1:]:
        parts = line.split()
        if len(parts) < 10:
            continue
        try:
            local, remote = _addr(parts[1], family), _addr(parts[2], family)
            state = TCP_STATES.get(int(parts[3], 16), parts[3])
            tx, _, rx = parts[4].partition(":")
            inode = int(parts[9])
            wq, rq = int(tx, 16), int(rx, 16)
        except (ValueError, OSError):
            continue
        if inode == 0:
            if state not in _QUEUED:
                continue  # TIME_WAIT and friends: no socket holds them any more
            # in a listener's accept queue: no file yet, so no inode (a stand-in, one per family)
            inode = -len(out) - 1 - (1 << 20 if family == "tcp6" else 0)
        out.append(Endpoint(inode, family, state, local, remote, None, rq, wq, state == "LISTEN"))
    return tuple(_queued_at(_pair_loopback(out)))


_QUEUED = frozenset({"ESTABLISHED", "CLOSE_WAIT"})
"""States of a connection with no inode that is still waiting to be accepted (a closed one
lingers in FIN_WAIT, TIME_WAIT...): the client's side of it is open and may wait on it."""


def _queued_at(eps: list[Endpoint]) -> list[Endpoint]:
    """Each connection not yet accepted, with the listener whose queue holds it (same port, the
    same address or a wildcard one)."""
    listeners = {e.local: e.inode for e in eps if e.listener}
    out = []
    for e in eps:
        if e.inode < 0:
            host, _, port = e.local.rpartition(":")
            wild = ("[::]" if host.startswith("[") else "0.0.0.0") + f":{port}"
            pending = listeners.get(e.local, listeners.get(wild, listeners.get(f"[::]:{port}")))
            e = replace(e, pending=pending)
        out.append(e)
    return out


def _pair_loopback(eps: list[Endpoint]) -> list[Endpoint]:
    """A connection whose other side is on this host: its peer is the socket with the addresses
    swapped."""
    by_pair = {(e.local, e.remote): e.inode for e in eps if not e.listener}
    out = []
    for e in eps:
        peer = by_pair.get((e.remote, e.local)) if not e.listener else None
        out.append(replace(e, peer=peer))
    return out


def tcp_endpoints(pid: int, proc: Path = Path("/proc")) -> dict[int, Endpoint]:
    """TCP sockets in `pid`'s network namespace, by inode."""
    out: dict[int, Endpoint] = {}
    for family in ("tcp", "tcp6"):
        try:
            text = (proc / str(pid) / "net" / family).read_text()
        except OSError:
            continue
        out.update({e.inode: e for e in parse_tcp(text, family)})
    return out
