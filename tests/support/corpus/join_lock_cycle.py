"""Shape: main holds a lock and joins a thread that waits for that lock.

Why it matters: two Python threads, each waiting for the other: main for the thread to end, the
thread for the lock main holds (a `stop()` that joins its refresher under the object's lock). A
Python lock has no owner field, but the joined thread is the only other thread: only main can
hold the lock, so the chain ends in a cycle of the two. A helper thread checks (/proc, bounded)
that both are in futex waits, prints `ready`, and exits.
"""

import threading

import handshake


def main() -> None:
    lock = threading.Lock()
    tids = [threading.get_native_id()]

    def refresh() -> None:
        tids.append(threading.get_native_id())
        with lock:  # main holds it, and waits for this thread to end
            pass

    with lock:
        t = threading.Thread(target=refresh, name="refresher")
        t.start()
        handshake.ready_once_in(handshake.FUTEX, lambda: tids, count=2)
        t.join()


if __name__ == "__main__":
    main()
