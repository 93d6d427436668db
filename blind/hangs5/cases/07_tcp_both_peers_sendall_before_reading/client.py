import socket
import subprocess
import sys
import threading


def run(size, threaded, delay=None):
    server = subprocess.Popen([sys.executable, "server.py"] + ([str(delay)] if delay else []),
                              stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    s = socket.create_connection(("127.0.0.1", port))
    payload = b"acgt" * (size // 4)
    print("ready", flush=True)
    if threaded:                          # the fix: send and receive at the same time
        sender = threading.Thread(target=lambda: (s.sendall(payload), s.shutdown(socket.SHUT_WR)))
        sender.start()
    else:
        s.sendall(payload)                # whole request first...
        s.shutdown(socket.SHUT_WR)
    got = 0
    while True:                           # ...then the response
        chunk = s.recv(65536)
        if not chunk:
            break
        got += len(chunk)
    if threaded:
        sender.join()
    print("received", got, flush=True)
    server.wait()
