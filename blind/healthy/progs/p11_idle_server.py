# interpreter: blind
# shape: a small HTTP API server (http.server ThreadingHTTPServer + duckdb) idle between rare requests
# from a client process; the server shuts down after 40 s
import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import duckdb

CLIENT = r'''
import json, sys, time, urllib.request
for i, pause in enumerate([6, 9, 3, 10, 7]):
    time.sleep(pause)
    with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/q?n={i}", timeout=30) as r:
        print(json.loads(r.read())["rows"], flush=True)
'''

con = duckdb.connect()
con.execute("create table t as select range as i, range % 97 as k, random() as v from range(2000000)")
lock = threading.Lock()


class H(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        with lock:
            cur = con.cursor()
            rows = cur.execute("select k, avg(v), count(*) from t group by k order by k").fetchall()
        body = json.dumps({"rows": len(rows)}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a: object) -> None:
        pass


def main() -> int:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    port = srv.server_address[1]
    timer = threading.Timer(40, srv.shutdown)
    timer.start()
    client = subprocess.Popen([sys.executable, "-c", CLIENT, str(port)], stdout=subprocess.PIPE, text=True)
    print("ready", flush=True)
    srv.serve_forever(poll_interval=0.5)
    srv.server_close()
    out, _ = client.communicate(timeout=30)
    timer.cancel()
    print(f"served {len(out.split())} requests", flush=True)
    return 0 if client.returncode == 0 else 3


if __name__ == "__main__":
    sys.exit(main())
