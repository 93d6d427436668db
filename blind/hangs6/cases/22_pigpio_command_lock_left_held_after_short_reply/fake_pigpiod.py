# A stand-in for the pigpiod daemon (pigpio's socket protocol: 16-byte commands 'IIII', 16-byte replies
# '12sI'). The first connection carries commands, the second notifications (NOIB). MODE "short": its reply
# to the second TICK command is cut short (8 bytes, as a dropped or split TCP segment gives); MODE "slow":
# its reply to the second TICK comes after DELAY seconds. It stays up either way.
import socket
import struct
import sys
import threading
import time

mode, delay = sys.argv[1], float(sys.argv[2])
srv = socket.create_server(("127.0.0.1", 0))
print(srv.getsockname()[1], flush=True)
start = time.monotonic()


def serve(conn: socket.socket) -> None:
    ticks = 0
    while True:
        req = b""
        while len(req) < 16:
            chunk = conn.recv(16 - len(req))
            if not chunk:
                return
            req += chunk
        cmd, p1, p2, p3 = struct.unpack("IIII", req)
        res = 0
        if cmd == 16:                                  # TICK
            ticks += 1
            res = int((time.monotonic() - start) * 1e6) & 0xFFFFFFFF
            if ticks == 2 and mode == "short":
                conn.sendall(req[:8])
                continue
            if ticks == 2 and mode == "slow":
                time.sleep(delay)
        conn.sendall(req[:12] + struct.pack("I", res))


while True:
    c, _ = srv.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
