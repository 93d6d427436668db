import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request

from flask import Flask


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run(upstream_delay=None) -> None:
    port = free_port()
    app = Flask("shop")
    upstream = f"http://127.0.0.1:{port}/api/stock"
    if upstream_delay is not None:
        svc = subprocess.Popen([sys.executable, "slow_service.py", str(upstream_delay)], stdout=subprocess.PIPE,
                               universal_newlines=True)
        upstream = f"http://127.0.0.1:{svc.stdout.readline().strip()}/api/stock"

    @app.route("/api/stock")
    def stock():
        return '{"stock": 7}'

    @app.route("/page")
    def page():
        # the page view fetches data from the app's own API (no timeout)
        data = urllib.request.urlopen(upstream).read().decode()
        return "<p>stock: " + data + "</p>"

    def client() -> None:                             # the browser
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        print("ready", flush=True)
        print(urllib.request.urlopen(f"http://127.0.0.1:{port}/page").read().decode(), flush=True)
        os._exit(0)

    threading.Thread(target=client, daemon=True).start()
    app.run(host="127.0.0.1", port=port)              # Flask's development server
