# A TCP health check / port scanner run by another job on the host (double-forked: outside the
# dashboard's process tree): it opens a TCP connection to the port and never sends a ClientHello, then
# closes after SECONDS (argv: port, seconds).
import os
import socket
import sys
import time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
if os.fork():
    os._exit(0)
if os.fork():
    os._exit(0)
s = socket.create_connection(("127.0.0.1", port))
print("probe connected", flush=True)
sys.stdout.close()
os.close(1)
time.sleep(seconds)
s.close()
