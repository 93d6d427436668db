import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

import numpy as np
import pytest


class H(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        time.sleep(1.0)
        body = json.dumps({"ok": True}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a: object) -> None:
        pass


@pytest.fixture(scope="module")
def server():
    srv = HTTPServer(("127.0.0.1", 0), H)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield srv.server_address[1]
    srv.shutdown()


@pytest.mark.parametrize("i", range(4))
def test_api(server, i):
    with urllib.request.urlopen(f"http://127.0.0.1:{server}/x{i}", timeout=10) as r:
        assert json.loads(r.read())["ok"]


def test_subprocess_cli(tmp_path):
    p = tmp_path / "script.py"
    p.write_text("import time; time.sleep(6); print('built')")
    r = subprocess.run([sys.executable, str(p)], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "built"


def test_numeric():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((600, 600))
    for _ in range(20):
        a = np.tanh(a @ a.T / 600)
    assert np.isfinite(a).all()


def test_waits_for_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    code = f"import socket,time; time.sleep(5); s=socket.socket(); s.bind(('127.0.0.1',{port})); s.listen(); c,_=s.accept(); c.sendall(b'hi'); c.close()"
    child = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                c = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.5)
        assert c.recv(2) == b"hi"
        c.close()
    finally:
        child.wait(timeout=30)


def test_slow_fixture_like_sleep():
    time.sleep(7)


def test_eventual_consistency():
    ev = threading.Event()
    threading.Timer(6.0, ev.set).start()
    assert ev.wait(timeout=30)
