"""queue.Queue.join() blocks until every item got a task_done(); a consumer that forgets it
leaves the producer in join() forever (the queue docs). Control: the consumer calls
task_done()."""

import os
import queue
import threading

import _ready


def main() -> None:
    q: queue.Queue[int] = queue.Queue()

    def consume() -> None:
        while True:
            q.get()
            if _ready.control():
                q.task_done()

    threading.Thread(target=consume, name="consumer", daemon=True).start()
    for i in range(3):
        q.put(i)
    if not _ready.control():
        me = os.getpid()

        def watch() -> None:
            _ready.settled(lambda: _ready.in_futex(me) >= 2 and q.empty(), "parked")
            _ready.announce(me)

        threading.Thread(target=watch, daemon=True).start()
    q.join()


if __name__ == "__main__":
    main()
