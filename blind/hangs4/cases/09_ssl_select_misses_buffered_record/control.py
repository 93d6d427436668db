# Control: the fix of pydicom/pynetdicom#528: select() is only used when the SSLSocket has no decrypted
# data pending (SSLSocket.pending()), so the buffered body is read at once and the exchange goes on.
# CPython 3.11.7.
import os
import select
import socket
import ssl
import struct
import subprocess
import sys
import time

portfile = os.path.abspath("port.txt")
if os.path.exists(portfile):
    os.remove(portfile)
server = subprocess.Popen([sys.executable, "server.py", portfile, "one"])
while not os.path.exists(portfile) or not open(portfile).read():
    time.sleep(0.02)
port = int(open(portfile).read())

ctx = ssl.create_default_context(cafile="cert.pem")
tls = ctx.wrap_socket(socket.create_connection(("127.0.0.1", port)), server_hostname="localhost")


def recv_exact(n):
    data = b""
    while len(data) < n:
        if not tls.pending():                   # the fix: data already decrypted needs no select()
            select.select([tls], [], [])
        chunk = tls.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


tls.sendall(b"FIND patient=042\n")
kind, length = struct.unpack("!HI", recv_exact(6))
print("header", kind, length, "pending in TLS buffer:", tls.pending(), flush=True)
print("ready", flush=True)
body = recv_exact(length)
tls.sendall(b"FIND patient=043\n")
print("got", len(body))
tls.close()
server.wait()
