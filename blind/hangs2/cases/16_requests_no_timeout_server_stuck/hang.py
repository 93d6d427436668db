# psf/requests#3353 (and openenergymonitor/emonhub#126: "Requests will wait forever for a response
# once the server has opened the connection"): requests.get() without a timeout to a backend that
# accepted the connection and whose handler is itself stuck. requests 2.31.0.
import subprocess, sys, os
import requests

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py")], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
print("ready", flush=True)
r = requests.get(f"http://127.0.0.1:{port}/status")
print("done", r.status_code)
srv.wait()
