import os
import subprocess
import sys
import threading

import serial
from serial.threaded import LineReader, ReaderThread

HERE = os.path.dirname(os.path.abspath(__file__))


class TempReader(LineReader):
    TERMINATOR = b"\r\n"

    def __init__(self) -> None:
        super().__init__()
        self.first = threading.Event()
        self.line = ""

    def handle_line(self, line: str) -> None:
        self.line = line
        self.first.set()


def run(pass_instance: bool, delay: float) -> None:
    master, slave = os.openpty()
    inst = subprocess.Popen([sys.executable, os.path.join(HERE, "instrument.py"), str(master), str(delay)],
                            pass_fds=(master,))
    try:
        ser = serial.Serial(os.ttyname(slave), baudrate=115200, timeout=None)
        factory = TempReader() if pass_instance else TempReader    # pyserial expects a factory (callable)
        print("ready", flush=True)
        with ReaderThread(ser, factory) as proto:                  # __enter__ waits for connection_made
            proto.first.wait()
            print("instrument says", proto.line, flush=True)
    finally:
        inst.kill()
        inst.wait()
