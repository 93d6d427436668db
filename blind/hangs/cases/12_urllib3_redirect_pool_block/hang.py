# urllib3/urllib3#1808 ("urllib3 hanging inside call to PoolManager request"): with a blocking
# pool of one connection per host (PoolManager(maxsize=1, block=True)) and a streamed response
# (preload_content=False), the PoolManager follows a redirect to another host but never releases
# the connection of the first host's redirect response; the next request to that host waits for
# a free connection forever. urllib3 1.25.8 (affected).
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
