import socket
import subprocess
import sys
import time
import urllib.request


def start_server(mode: str) -> tuple[subprocess.Popen, int]:
    srv = subprocess.Popen([sys.executable, "server.py", mode], stdout=subprocess.PIPE, text=True)
    assert srv.stdout is not None
    return srv, int(srv.stdout.readline())


def post_with_urllib(mode: str) -> None:
    srv, port = start_server(mode)
    req = urllib.request.Request(f"http://127.0.0.1:{port}/webhook", data=b'{"event": "push"}' * 10,
                                 headers={"Content-Type": "application/json"})
    print("ready", flush=True)
    with urllib.request.urlopen(req) as resp:          # no timeout; keeps its side open until the reply
        print("client:", resp.read().decode().strip(), flush=True)
    srv.terminate()
    srv.wait()


def post_slowly_then_close(seconds: float) -> None:
    srv, port = start_server("bug")
    s = socket.create_connection(("127.0.0.1", port))
    body = b'{"event": "push"}' * 10
    s.sendall(b"POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n" % len(body))
    print("ready", flush=True)
    for i in range(10):                                # an uploader that streams its body over 16 s
        time.sleep(seconds / 10)
        s.sendall(body[i * 17:(i + 1) * 17])
    s.shutdown(socket.SHUT_WR)                         # then ends its side of the request
    data = b""
    while b"stored" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    print("client:", data.decode().splitlines()[-1], flush=True)
    s.close()
    srv.terminate()
    srv.wait()
