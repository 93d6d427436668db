# Control: the fix used by such servers (shutdown() before close(), as in Gearlynx#55 / the repy_v2
# note): shutdown(SHUT_RDWR) makes the blocked accept() fail at once; the join returns.
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
listener.shutdown(socket.SHUT_RDWR)
listener.close()
print("closed the listener; joining the acceptor (port %d)" % port, flush=True)
print("ready", flush=True)
t.join()
print("done")
