# Control: the fix from pyserial's documentation for CR-terminated devices: read_until(b"\r") ends at the
# instrument's terminator. pyserial 3.5 on CPython 3.11.7.
from common import open_instrument

dev, port = open_instrument(b"+21.457 C\r", 0)
port.write(b"MEAS:TEMP?\r")
print("ready", flush=True)
print("temperature:", port.read_until(b"\r"))
port.close()
dev.wait()
