# Look-alike: same ventilator blocked in send(); the worker loads its model for 16 s, then connects and pulls
# every task. pyzmq 25.1.2 on CPython 3.11.7.
from common import run

run("slow16")
