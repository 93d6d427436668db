# Look-alike: a UDP ping to a local server (a child process) that answers after 16 s.
import socket, subprocess, sys

SERVER = r"""
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1], flush=True)
data, addr = s.recvfrom(2048)
time.sleep(16)
s.sendto(b"\x1cpong", addr)
"""
srv = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(b"\x01ping", ("127.0.0.1", port))
print("ready", flush=True)
data, addr = s.recvfrom(2048)
print("done", data, addr)
srv.wait()
