# Look-alike: the same Process.wait() (CPython 3.12.1); the helper exits by itself after 16 s, the pipe
# closes and wait() returns.
from orchestrator import run

run(poll_returncode=False, helper_seconds=16)
