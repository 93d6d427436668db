# Control: the fix: a documented lock order; both jobs take session.lock before config.lock.
# CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(order_b=("session", "config"))
