# irmen/Pyro4#99 ("Per-call thread execution in server object to avoid circular lock": a circular call chain
# without a oneway call locks up): the job calls FeatureService.compute() through its proxy `svc` (Pyro4 holds the
# proxy's connection lock for the whole call); the service calls back the job's Progress object, served by the
# job's own daemon thread, and waits for it; the callback asks the service for its status through the same `svc`
# proxy and waits for that proxy's lock. Main thread -> service worker -> job's daemon thread -> main thread, over
# two Unix sockets. Pyro4 4.82, CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(callback_uses_shared_proxy=True, work=0.2)
