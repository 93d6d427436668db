# DenchHQ/DenchClaw#62 ("File lock implementation may deadlock with nested lock acquisition"): two jobs take
# two lock files (flock(2), blocking, no timeout) in opposite orders: session-sync holds session.lock and
# waits for config.lock, config-reload holds config.lock and waits for session.lock. flock has no deadlock
# detection (unlike fcntl record locks). The parent joins both. CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(order_b=("config", "session"))
