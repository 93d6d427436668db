# A small SSH server (paramiko's server mode) standing in for the remote host: one connection, password
# auth, and an exec channel whose command writes SIZE bytes to stdout, then sleeps SECONDS, then exits 0
# (argv: SIZE SECONDS). Prints its port.
import socket
import sys
import threading
import time

import paramiko

size, pause = int(sys.argv[1]), float(sys.argv[2])
host_key = paramiko.RSAKey(filename="host_key")


class Server(paramiko.ServerInterface):
    def __init__(self):
        self.exec_event = threading.Event()

    def check_channel_request(self, kind, chanid):
        return paramiko.OPEN_SUCCEEDED

    def check_auth_password(self, username, password):
        return paramiko.AUTH_SUCCESSFUL

    def get_allowed_auths(self, username):
        return "password"

    def check_channel_exec_request(self, channel, command):
        self.exec_event.set()
        return True


srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
print(srv.getsockname()[1], flush=True)
conn, _ = srv.accept()
t = paramiko.Transport(conn)
t.add_server_key(host_key)
server = Server()
t.start_server(server=server)
chan = t.accept(60)
server.exec_event.wait(60)
block = b"route 10.0.0.0/8 via 192.0.2.1 dev eth0\n" * 1000
sent = 0
while sent < size:                   # the remote command's stdout
    chan.sendall(block)              # blocks while the client's window is closed
    sent += len(block)
time.sleep(pause)
chan.send_exit_status(0)
chan.close()
t.join(60)
