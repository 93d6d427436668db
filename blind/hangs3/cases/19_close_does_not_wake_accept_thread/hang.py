# certbot/certbot#1085 (Hanging threads (acme.standalone)): to stop a server thread blocked in accept(),
# another thread closes the listening socket and joins it; on Linux close() does not wake a thread
# blocked in accept() on that socket (the kernel keeps the socket listening while accept() holds it),
# so the join waits until some client connects to the port. CPython 3.11.7 (socket, threading).
import socket
import threading

running = True
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(5)
port = listener.getsockname()[1]
in_accept = threading.Event()
acceptor_tid = []


def serve():
    acceptor_tid.append(threading.get_native_id())
    while running:
        in_accept.set()
        try:
            conn, _ = listener.accept()
        except OSError:
            break
        conn.close()


t = threading.Thread(target=serve, name="acceptor")
t.start()
in_accept.wait()
while True:                      # handshake through /proc: the acceptor is inside accept4() (syscall 288)
    with open(f"/proc/self/task/{acceptor_tid[0]}/syscall") as f:
        if f.read().split()[0] == "288":
            break
running = False
listener.close()                 # does not interrupt accept() on Linux
print("closed the listener; joining the acceptor (port %d)" % port, flush=True)
print("ready", flush=True)
t.join()
print("done")
