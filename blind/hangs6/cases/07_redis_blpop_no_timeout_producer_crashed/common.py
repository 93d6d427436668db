import os
import socket
import subprocess
import sys
import tempfile
import time

import redis


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run(producer_mode: str, timeout: int = 0) -> None:
    port = free_port()
    data = tempfile.mkdtemp(prefix="redis-")
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no", "--dir", data], stdout=subprocess.DEVNULL)
    r = redis.Redis(port=port)
    deadline = time.time() + 10
    while True:
        try:
            r.ping()
            break
        except redis.ConnectionError:
            if time.time() > deadline:
                raise
            time.sleep(0.05)
    producer = subprocess.Popen([sys.executable, "producer.py", str(port), producer_mode])
    print("ready", flush=True)
    got = []
    while len(got) < 3:
        item = r.blpop(["results"], timeout=timeout)   # timeout=0: block until an item arrives
        if item is None:
            if producer.poll() is not None:
                print("collector: producer exited with", producer.returncode, "- giving up", flush=True)
                break
            continue
        got.append(item[1].decode())
    print("collector: got", got, flush=True)
    producer.wait()
    server.terminate()
    server.wait()
