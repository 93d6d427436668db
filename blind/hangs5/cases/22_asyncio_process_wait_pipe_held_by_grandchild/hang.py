# python/cpython#119710 (fixed by PR #151983, "Let asyncio Process.wait() finish on only process exit") and
# agronholm/anyio#1174: asyncio's Process.wait() returns only when the process has exited AND its
# stdout/stderr pipes are closed. The CLI tool started a helper server that inherited its stdout; the tool
# exits, the helper keeps the pipe open and runs until the orchestrator closes its control pipe, which
# the orchestrator does after wait() returns. CPython 3.12.1 (asyncio subprocess).
from orchestrator import run

run(poll_returncode=False)
