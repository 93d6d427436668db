# pyserial/pyserial#544 (".readline() doesn't work properly if target uses different newline terminator
# than the host default") and labgrid-project/labgrid#1501 ("reading from serial line hangs
# indefinitely ... unless I used timeout"): readline() only ends at b"\n"; the instrument ends its answer
# with CR only and then waits for the next command, so with timeout=None readline() waits forever for a
# newline the instrument would send only after a command that the host sends only after the line.
# pyserial 3.5 on CPython 3.11.7; the instrument is a child process on the other end of a pty.
from common import open_instrument

dev, port = open_instrument(b"+21.457 C\r", 0)
port.write(b"MEAS:TEMP?\r")
print("ready", flush=True)
print("temperature:", port.readline())
port.write(b"SYST:LOC\r")
port.close()
dev.wait()
