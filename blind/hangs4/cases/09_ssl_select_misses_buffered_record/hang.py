# pydicom/pynetdicom#528 ("fix: handle SSLSocket buffering"; the flaky C-FIND over TLS of #500/#364):
# the client waits with select() before each recv(), but an SSLSocket reads whole TLS records: after
# recv(6) of a message header the rest of the record (the body) sits decrypted inside OpenSSL, the OS
# socket has nothing more, and select() waits for data the server already sent. The server waits for the
# client's next request. Python's ssl docs, "Notes on non-blocking sockets". CPython 3.11.7 (stdlib ssl,
# select; the server is a child process).
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
        select.select([tls], [], [])            # wait until the socket is readable
        chunk = tls.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


tls.sendall(b"FIND patient=042\n")
kind, length = struct.unpack("!HI", recv_exact(6))
print("header", kind, length, "pending in TLS buffer:", tls.pending(), flush=True)
print("ready", flush=True)
body = recv_exact(length)                      # select() never returns: the body is already buffered
tls.sendall(b"FIND patient=043\n")
print("got", len(body))
tls.close()
server.wait()
