import os
import subprocess
import sys

import serial


def open_instrument(reply, delay):
    master, slave = os.openpty()
    dev = subprocess.Popen([sys.executable, "device.py", str(master), repr(reply), str(delay)], pass_fds=[master])
    os.close(master)
    port = serial.Serial(os.ttyname(slave), 115200, timeout=None)   # no timeout: block until a line
    os.close(slave)
    return dev, port
