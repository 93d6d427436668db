# The transform service (child process): accepts one connection and streams back each chunk it
# receives, upper-cased, as soon as it has it (argv: port file, seconds to wait before serving).
import socket
import sys
import time

srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
print(srv.getsockname()[1], flush=True)
conn, _ = srv.accept()
if len(sys.argv) > 1:
    time.sleep(float(sys.argv[1]))
while True:
    chunk = conn.recv(65536)
    if not chunk:
        break
    conn.sendall(chunk.upper())          # the mutual write lockup: blocks when the client does not read
conn.close()
