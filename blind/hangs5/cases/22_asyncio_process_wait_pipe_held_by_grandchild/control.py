# Control: the fix used by ohdearquant/lionagi#3392 and anyio's asyncio backend: wait for the child
# itself (its returncode, set when it is reaped), not for whatever holds its pipes. CPython 3.12.1.
from orchestrator import run

run(poll_returncode=True)
