import threading
import time


def wait_blocked_untimed(thread, deadline=10.0):
    """Handshake through /proc: until `thread` sits in futex() with no timeout (a lock acquire, not the
    timed Event.wait of its refresh loop)."""
    t0 = time.time()
    while time.time() - t0 < deadline:
        try:
            with open(f"/proc/self/task/{thread.native_id}/syscall") as f:
                fields = f.read().split()
        except OSError:
            return False
        if fields[0] == "202" and int(fields[4], 16) == 0:
            return True
        time.sleep(0.005)
    return False
