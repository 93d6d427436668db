# Control: the fix of emonhub#126: pass a timeout; the stuck backend makes the call fail, and the
# client ends (and stops the backend).
import subprocess, sys, os
import requests

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py")], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
print("ready", flush=True)
try:
    r = requests.get(f"http://127.0.0.1:{port}/status", timeout=2)
    print("done", r.status_code)
except requests.exceptions.ReadTimeout as e:
    print("timed out", e)
srv.kill()
srv.wait()
