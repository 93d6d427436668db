"""Shape: a thread holds a lock while it reads a pipe whose only writer, a thread of the same
process, needs that lock to write.

Why it matters: the pipe's other end is held only by this process, through a blocking write end
(no signal's wakeup fd), and the thread that would write waits on a lock of this process: the
two threads wait for one another. A helper thread prints `ready` once /proc shows the writer in
its futex wait (bounded: exit 3), then exits; the reader is in read() by then or a moment after.
"""

import os
import threading

import handshake


def main() -> None:
    lock = threading.Lock()
    r, w = os.pipe()
    tids = [threading.get_native_id()]

    def produce() -> None:
        tids.append(threading.get_native_id())
        with lock:  # the reader holds it while it waits for this thread's byte
            os.write(w, b"x")

    with lock:
        threading.Thread(target=produce, name="producer").start()
        handshake.ready_once_in(handshake.FUTEX, lambda: tids[1:])
        os.read(r, 1)


if __name__ == "__main__":
    main()
