"""The feature service: a Pyro4 daemon on a Unix socket. compute() works, then reports progress to the caller's
callback object and waits for that call to return."""
import sys
import time

import Pyro4

SOCK, WORK = sys.argv[1], float(sys.argv[2])


@Pyro4.expose
class FeatureService:
    def compute(self, job: str, callback_uri: str) -> str:
        time.sleep(WORK)
        with Pyro4.Proxy(callback_uri) as cb:
            cb.progress(job, 100)                  # synchronous callback into the job process
        return f"{job}: 128 features"

    def status(self) -> str:
        return "idle"


daemon = Pyro4.Daemon(unixsocket=SOCK)
uri = daemon.register(FeatureService(), "features")
print(uri, flush=True)
daemon.requestLoop()
