"""Shape: a process connects to its own multiprocessing Listener (a unix socket) and waits for
the handshake, but the only thread that could accept the connection is the one waiting (a
manager-like server started in-process and never served).

The client's other side waits, not accepted yet, in the accept queue of a listener only this
process holds: a self-wait through a unix socket. Prints `ready` once the client waits.
"""

import os
import tempfile
from multiprocessing.connection import Client, Listener

import handshake


def main() -> None:
    address = os.path.join(tempfile.mkdtemp(), "listener")
    with Listener(address, family="AF_UNIX", authkey=b"secret"):
        handshake.ready_once_in(handshake.READ)
        Client(address, family="AF_UNIX", authkey=b"secret")


if __name__ == "__main__":
    main()
