"""subprocess's preexec_fn runs in the forked child before exec, and is not safe with threads:
one that takes a lock another thread holds waits forever, and so does the parent in Popen().
Control: no preexec_fn (the work moves to the child program, or to start_new_session=True)."""

import os
import subprocess
import sys
import threading

import _ready

READ = {"x86_64": "0", "aarch64": "63"}.get(os.uname().machine, "0")


def main() -> None:
    lock = threading.Lock()
    held = threading.Event()

    def holder() -> None:
        with lock:
            held.set()
            threading.Event().wait()

    threading.Thread(target=holder, name="holder", daemon=True).start()
    held.wait()
    if _ready.control():
        sys.exit(
            subprocess.run([sys.executable, "-c", "pass"], start_new_session=True, timeout=60).returncode
        )
    me = os.getpid()

    def watch() -> None:
        def child() -> int | None:
            try:
                with open(f"/proc/{me}/task/{me}/children") as fh:
                    kids = fh.read().split()
            except OSError:
                return None
            return int(kids[0]) if kids else None

        _ready.settled(lambda: (c := child()) is not None and _ready.parked(c, threads=1), "parked")
        kid = child()
        assert kid is not None
        _ready.announce(kid)

    threading.Thread(target=watch, daemon=True).start()
    subprocess.Popen([sys.executable, "-c", "pass"], preexec_fn=lock.acquire)


if __name__ == "__main__":
    main()
