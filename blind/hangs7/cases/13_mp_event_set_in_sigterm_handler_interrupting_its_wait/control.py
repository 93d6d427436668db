# Control: the fix direction of the issue: the SIGTERM handler only records the request and the serving loop, which
# waits with a timeout, sets the exit event outside the handler. CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run("flag")
