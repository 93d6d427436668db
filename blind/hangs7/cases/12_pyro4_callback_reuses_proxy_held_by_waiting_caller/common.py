import os
import subprocess
import sys
import tempfile
import threading

import Pyro4

HERE = os.path.dirname(os.path.abspath(__file__))


def run(callback_uses_shared_proxy: bool, work: float) -> None:
    tmp = tempfile.mkdtemp(prefix="pyro-")
    svc_proc = subprocess.Popen([sys.executable, os.path.join(HERE, "featsvc.py"), os.path.join(tmp, "feat.sock"),
                                 str(work)], stdout=subprocess.PIPE, text=True)
    try:
        svc_uri = svc_proc.stdout.readline().strip()
        svc = Pyro4.Proxy(svc_uri)                 # the job's shared proxy to the service

        @Pyro4.expose
        class Progress:
            def progress(self, job: str, pct: int) -> None:
                if callback_uses_shared_proxy:
                    state = svc.status()           # same proxy the main thread is using: waits for its lock
                else:
                    with Pyro4.Proxy(svc_uri) as own:   # a proxy owned by this thread
                        state = own.status()
                print(f"progress {job} {pct}% (service {state})", flush=True)

        daemon = Pyro4.Daemon(unixsocket=os.path.join(tmp, "job.sock"))
        cb_uri = daemon.register(Progress(), "progress")
        threading.Thread(target=daemon.requestLoop, name="callback-daemon", daemon=True).start()
        print("ready", flush=True)
        print("result:", svc.compute("job-7", str(cb_uri)), flush=True)
        daemon.shutdown()
    finally:
        svc_proc.kill()
        svc_proc.wait()
