"""concurrent.futures' own example of a deadlock: a task of a one-worker ThreadPoolExecutor
waits for a future it submitted to the same pool (queued behind itself). Control: two workers."""

import threading
from concurrent.futures import ThreadPoolExecutor

import _ready


def main() -> None:
    executor = ThreadPoolExecutor(max_workers=2 if _ready.control() else 1)

    def wait_on_future() -> int:
        return executor.submit(pow, 5, 2).result()

    outer = executor.submit(wait_on_future)
    if not _ready.control():
        me = threading.get_native_id()

        def watch() -> None:
            _ready.settled(lambda: _ready.in_futex(me) >= 2, "parked")
            _ready.announce(me)

        threading.Thread(target=watch, daemon=True).start()
    assert outer.result() == 25
    executor.shutdown()


if __name__ == "__main__":
    main()
