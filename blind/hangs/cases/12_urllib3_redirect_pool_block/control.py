# Control: the same program with urllib3 1.26.20, whose PoolManager releases the connection of a
# redirect response before it follows the redirect (the fix of urllib3#1808).
import subprocess, sys, os
import urllib3

srv = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "server.py")], stdout=subprocess.PIPE)
port = int(srv.stdout.readline())
http = urllib3.PoolManager(maxsize=1, block=True)
for i in range(2):
    if i == 1:
        print("ready", flush=True)
    r = http.request("GET", f"http://127.0.0.1:{port}/redir", preload_content=False)
    data = r.read()
    r.release_conn()
    print(i, r.status, data, flush=True)
srv.kill(); srv.wait()
print("done")
