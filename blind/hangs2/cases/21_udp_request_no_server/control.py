# Control: the advice in PyRakLib#2: a receive timeout; the lost ping is reported and the job ends.
import socket

probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
probe.bind(("127.0.0.1", 0))
free_port = probe.getsockname()[1]
probe.close()

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
s.sendto(b"\x01ping", ("127.0.0.1", free_port))
print("ready", flush=True)
try:
    data, addr = s.recvfrom(2048)
    print("done", data, addr)
except socket.timeout:
    print("no reply")
