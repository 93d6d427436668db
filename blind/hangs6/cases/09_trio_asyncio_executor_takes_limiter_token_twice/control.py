# Control: the fixed release trio-asyncio 0.14.1 (the executor no longer takes the token itself);
# run_in_executor with max_workers=1 runs. CPython 3.11.7.
from common import run

run(max_workers=1)
