# Look-alike: the same blocking one-connection pool; another thread holds the pool's only
# connection while it streams a slow 16 s response, the main thread waits for a free connection
# and gets it when that thread releases it.
import subprocess, sys, os, threading
import urllib3

srv = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "server.py")], stdout=subprocess.PIPE)
port = int(srv.stdout.readline())
http = urllib3.PoolManager(maxsize=1, block=True)
got = threading.Event()
def slow():
    r = http.request("GET", f"http://127.0.0.1:{port}/slow", preload_content=False)
    got.set()
    r.read(); r.release_conn()
t = threading.Thread(target=slow); t.start()
got.wait(10)
print("ready", flush=True)
r = http.request("GET", f"http://127.0.0.1:{port}/data", preload_content=False)
print(r.read()); r.release_conn()
t.join()
srv.kill(); srv.wait()
print("done")
