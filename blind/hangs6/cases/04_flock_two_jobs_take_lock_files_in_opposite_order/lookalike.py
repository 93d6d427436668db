# Look-alike: session-sync holds session.lock and waits for config.lock (flock, no timeout) while
# config-reload holds config.lock for 16 s of work (it takes no second lock) and then releases it.
# CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(order_b=("config", None), hold_b=16.0)
