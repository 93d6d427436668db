# Look-alike: requests.get() without a timeout to a backend whose upstream answers after 16 s.
import subprocess, sys, os
import requests

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "16"], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
print("ready", flush=True)
r = requests.get(f"http://127.0.0.1:{port}/status")
print("done", r.status_code)
srv.wait()
