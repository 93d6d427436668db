"""Shape: a nested monitor lockout -- a thread waits on a Condition while it holds an outer lock,
and the thread that would notify it must take that outer lock first; main joins the waiter.

Why it matters: every thread waits on a futex of its own process and no Python lock names its
holder, so a look sees "a join on a blocked thread" and a Condition nobody notifies; but exactly
one thread waits to acquire a plain lock, and every other waits for another thread: the lock's
holder is one of them, and the lock's waiter is the only one left to wake them (a cycle). A
helper thread prints `ready` once /proc shows all three in futex waits (bounded: exit 3).
"""

import threading

import handshake


def main() -> None:
    outer = threading.Lock()
    cond = threading.Condition()
    done: list[int] = []
    tids = [threading.get_native_id()]
    waiting = threading.Event()

    def waiter() -> None:
        tids.append(threading.get_native_id())
        with outer, cond:
            waiting.set()
            while not done:
                cond.wait()  # holds `outer` while it waits

    def notifier() -> None:
        tids.append(threading.get_native_id())
        with outer, cond:  # needs the lock the waiter keeps
            done.append(1)
            cond.notify()

    w = threading.Thread(target=waiter, name="waiter")
    w.start()
    waiting.wait(10)
    threading.Thread(target=notifier, name="notifier").start()
    handshake.ready_once_in(handshake.FUTEX, lambda: tids if len(tids) == 3 else [], count=3)
    w.join()


if __name__ == "__main__":
    main()
