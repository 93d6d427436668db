import ssl
import subprocess
import sys
import time
import urllib.request


def run(mode, probe_seconds):
    server = subprocess.Popen([sys.executable, "server.py", mode], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    starter = subprocess.Popen([sys.executable, "probe.py", str(port), str(probe_seconds)], stdout=subprocess.PIPE, text=True)
    print(starter.stdout.readline().strip(), flush=True)
    starter.wait()
    time.sleep(0.3)                     # the server has accepted the probe's connection
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    print("ready", flush=True)
    with urllib.request.urlopen(f"https://127.0.0.1:{port}/", context=ctx) as r:   # no timeout
        print("dashboard says:", r.read().decode().strip(), flush=True)
    server.terminate()
    server.wait()
