"""Stand-in for the instrument on the other side of the serial line (the pty master): announces itself after
`delay` seconds, then waits for commands."""
import os
import sys
import time

master, delay = int(sys.argv[1]), float(sys.argv[2])
time.sleep(delay)
os.write(master, b"TEMP 21.5\r\n")
while True:
    if not os.read(master, 1024):
        break
