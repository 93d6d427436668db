# alejzeis/PyRakLib#2: a UDP ping to a server address where nothing listens; recvfrom() has no timeout
# and waits forever for a reply (an unconnected UDP socket gets no error for the lost datagram).
import socket

probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
probe.bind(("127.0.0.1", 0))
free_port = probe.getsockname()[1]
probe.close()                         # a port where no server listens

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(b"\x01ping", ("127.0.0.1", free_port))
print("ready", flush=True)
data, addr = s.recvfrom(2048)
print("done", data, addr)
