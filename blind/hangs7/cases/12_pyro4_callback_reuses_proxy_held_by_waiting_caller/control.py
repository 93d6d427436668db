# Control: the fix given in the issue thread (a proxy belongs to one thread): the callback uses its own proxy to the
# service, which a separate server thread answers. Pyro4 4.82.
from common import run

if __name__ == "__main__":
    run(callback_uses_shared_proxy=False, work=0.2)
