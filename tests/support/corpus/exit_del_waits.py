"""Shape: an object's __del__, run while the interpreter tears its modules down at exit, stops a
server whose loop runs on a daemon thread and waits for it to say it stopped; but daemon threads
no longer run once finalization starts (grpc's Server.__del__ at exit after an exception).

`--timeout` gives the wait a timeout (the look-alike: it ends by itself). Prints `ready` (with a
reference kept to os.write, which teardown may clear) just before the wait.
"""

import os
import sys
import threading

_LOOP = """
def loop(stop_requested, stopped):
    while not stop_requested.wait(0.05):
        pass
    stopped.set()
"""
_library: dict[str, object] = {}
exec(_LOOP, _library)  # the server's loop lives in its own namespace, as a library's
# would: a running frame of this module's code would keep its globals, and the server, alive at exit


class Server:
    def __init__(self, timeout: float | None) -> None:
        self.timeout = timeout
        self.stop_requested = threading.Event()
        self.stopped = threading.Event()
        loop = _library["loop"]
        threading.Thread(target=loop, args=(self.stop_requested, self.stopped), daemon=True).start()  # type: ignore[arg-type]

    def __del__(self, write=os.write) -> None:  # type: ignore[no-untyped-def]
        self.stop_requested.set()
        write(1, b"ready\n")
        self.stopped.wait(self.timeout)


server = Server(60.0 if "--timeout" in sys.argv else None)  # freed with this module's globals, at exit
