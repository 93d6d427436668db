# Look-alike: the same readline() with timeout=None (pyserial 3.5, CPython 3.11.7); this instrument ends
# its answers with CR LF but takes 16 s to measure, then the line arrives.
from common import open_instrument

dev, port = open_instrument(b"+21.457 C\r\n", 16)
port.write(b"MEAS:TEMP?\r")
print("ready", flush=True)
print("temperature:", port.readline())
port.close()
dev.wait()
