import struct
import subprocess
import sys
import threading

import pigpio


def start_daemon(mode: str, delay: float = 0.0) -> tuple[subprocess.Popen, int]:
    d = subprocess.Popen([sys.executable, "fake_pigpiod.py", mode, str(delay)], stdout=subprocess.PIPE, text=True)
    assert d.stdout is not None
    return d, int(d.stdout.readline())


def run_after_short_reply() -> None:
    daemon, port = start_daemon("short")
    pi = pigpio.pi("127.0.0.1", port)
    print("tick", pi.get_current_tick(), flush=True)
    try:
        pi.get_current_tick()                          # the reply is cut short: struct.error
    except struct.error as exc:
        print("tick failed:", exc, flush=True)
    print("ready", flush=True)
    print("tick", pi.get_current_tick(), flush=True)   # the next command on the same pi
    pi.stop()
    daemon.terminate()
    daemon.wait()


def run_with_slow_reply(seconds: float) -> None:
    daemon, port = start_daemon("slow", seconds)
    pi = pigpio.pi("127.0.0.1", port)
    print("tick", pi.get_current_tick(), flush=True)
    t = threading.Thread(target=lambda: print("poller tick", pi.get_current_tick(), flush=True), name="poller")
    t.start()                                          # another thread's command: the daemon answers in 16 s
    import time
    time.sleep(0.5)
    print("ready", flush=True)
    print("tick", pi.get_current_tick(), flush=True)   # waits for the socket lock meanwhile
    t.join()
    pi.stop()
    daemon.terminate()
    daemon.wait()
