"""Look-alike of unix_self_call: the same connection to its own Listener, but another thread of
the process accepts it after a while (it sleeps first, as a server busy elsewhere would) and
answers the handshake: healthy, it ends. Prints `ready` once the client waits; the accept comes
after 60 s (the test kills it long before)."""

import os
import tempfile
import threading
import time
from multiprocessing.connection import Client, Listener

import handshake


def main() -> None:
    address = os.path.join(tempfile.mkdtemp(), "listener")
    with Listener(address, family="AF_UNIX", authkey=b"secret") as listener:

        def serve() -> None:
            time.sleep(60)  # busy elsewhere (the behaviour under test: a late accept)
            listener.accept().close()

        threading.Thread(target=serve, daemon=True).start()
        handshake.ready_once_in(handshake.READ)
        Client(address, family="AF_UNIX", authkey=b"secret").close()


if __name__ == "__main__":
    main()
