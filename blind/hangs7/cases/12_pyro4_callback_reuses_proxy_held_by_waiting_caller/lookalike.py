# Look-alike: same processes, sockets and callback; the service works 16 s before calling back, and the callback
# uses its own proxy; the job waits for compute() meanwhile. Pyro4 4.82.
from common import run

if __name__ == "__main__":
    run(callback_uses_shared_proxy=False, work=16.0)
