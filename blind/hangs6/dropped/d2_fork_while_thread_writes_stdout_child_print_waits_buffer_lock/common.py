import os
import sys
import threading
import time

fork_lock = threading.Lock()


def run(fork_safe: bool, worker_seconds: float = 0.0, attempts: int = 200) -> None:
    ready_fd = os.dup(1)
    r, w = os.pipe()
    os.dup2(w, 1)                                     # the job's stdout goes to its log collector
    os.close(w)

    def collector() -> None:                          # drains the log pipe, 4 KiB at a time
        while True:
            if not os.read(r, 4096):
                return
            time.sleep(0.0005)

    stop = threading.Event()

    def progress() -> None:                           # background thread printing progress to stdout
        chunk = ("progress " + "." * 990 + "\n") * 200
        while not stop.is_set():
            if fork_safe:
                with fork_lock:
                    sys.stdout.write(chunk)
                    sys.stdout.flush()
            else:
                sys.stdout.write(chunk)
                sys.stdout.flush()

    if fork_safe:                                     # ansible#79522: no write may straddle a fork
        os.register_at_fork(before=fork_lock.acquire, after_in_parent=fork_lock.release,
                            after_in_child=fork_lock.release)
    threading.Thread(target=collector, daemon=True).start()
    threading.Thread(target=progress, daemon=True).start()
    time.sleep(0.2)
    for attempt in range(attempts):
        pid = os.fork()
        if pid == 0:                                  # the worker (forked, no exec) logs its start first
            print(f"worker {attempt}: started", flush=True)
            for _ in range(10):
                time.sleep(worker_seconds / 10)
            os._exit(0)
        deadline = time.time() + 1.0
        while time.time() < deadline:
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.01)
        else:
            stop.set()
            os.write(ready_fd, b"ready\n")
            _, status = os.waitpid(pid, 0)
            os.write(ready_fd, f"worker {attempt} ended: {status}\n".encode())
            return
        if worker_seconds:
            break
    stop.set()
    os.write(ready_fd, b"ready\nall workers ended\n")
