# A small query service over TLS (a DICOM-like C-FIND stand-in): for each request line it answers one
# message, a 6-byte header (type, length) and the body. argv: port-file, mode ("one" = header and body in
# one write, i.e. one TLS record; "late" = for the first message, the body 16 s after the header).
import socket
import ssl
import struct
import sys
import time

ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain("cert.pem", "key.pem")
srv = socket.create_server(("127.0.0.1", 0))
with open(sys.argv[1], "w") as f:
    f.write(str(srv.getsockname()[1]))
conn, _ = srv.accept()
tls = ctx.wrap_socket(conn, server_side=True)
rfile = tls.makefile("rb")
first = True
while True:
    line = rfile.readline()
    if not line:
        break
    body = (b"%s: " % line.strip()) + b"x" * 4000
    header = struct.pack("!HI", 4, len(body))
    if sys.argv[2] == "late" and first:
        tls.sendall(header)
        time.sleep(16)
        tls.sendall(body)
    else:
        tls.sendall(header + body)
    first = False
tls.close()
