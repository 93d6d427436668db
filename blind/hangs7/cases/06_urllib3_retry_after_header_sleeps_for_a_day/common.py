import os
import subprocess
import sys

import urllib3
from urllib3.util.retry import Retry

HERE = os.path.dirname(os.path.abspath(__file__))


def run(retry_after: str, respect: bool) -> None:
    srv = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), retry_after], stdout=subprocess.PIPE)
    try:
        port = int(srv.stdout.readline())
        retries = Retry(total=3, status_forcelist=[503], backoff_factor=0.2, respect_retry_after_header=respect)
        http = urllib3.PoolManager(retries=retries, timeout=urllib3.Timeout(connect=5, read=10))
        print("ready", flush=True)
        r = http.request("GET", f"http://127.0.0.1:{port}/export")   # sleeps Retry-After seconds, then retries
        print("status", r.status, r.data.decode().strip(), flush=True)
    finally:
        srv.kill()
        srv.wait()
