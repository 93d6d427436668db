# Look-alike: the acceptor waits in accept() for its last client, which (a child process) connects
# after 16 s; then it stops and the join returns.
import socket
import subprocess
import sys
import threading

running = True
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(5)
port = listener.getsockname()[1]
in_accept = threading.Event()


def serve():
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
running = False
client = subprocess.Popen([sys.executable, "-c",
                           f"import socket, time; time.sleep(16); socket.create_connection(('127.0.0.1', {port})).close()"])
print("waiting for the last client; joining the acceptor (port %d)" % port, flush=True)
print("ready", flush=True)
t.join()
client.wait()
listener.close()
print("done")
