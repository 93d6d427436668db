import os
import time


def wait_tty_read(pid, deadline=20.0):
    """Handshake through /proc: until process pid sits in a read of its terminal (n_tty_read / wait_woken)."""
    t0 = time.time()
    while time.time() - t0 < deadline:
        try:
            with open("/proc/%d/syscall" % pid) as f:
                nr = f.read().split()[0]
            with open("/proc/%d/wchan" % pid) as f:
                wchan = f.read()
        except OSError:
            return False
        if nr == "0" and wchan in ("n_tty_read", "wait_woken"):
            return True
        time.sleep(0.02)
    return False
