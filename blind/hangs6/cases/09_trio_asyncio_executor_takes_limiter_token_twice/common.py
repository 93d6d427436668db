import asyncio
import time

import trio_asyncio


def checksum(path: str, seconds: float) -> str:
    time.sleep(seconds)                               # blocking work, run in a worker thread
    return f"sha256({path}) ok"


def run(max_workers: int, seconds: float = 0.0) -> None:
    async def amain() -> None:
        loop = asyncio.get_event_loop()
        executor = trio_asyncio.TrioExecutor(max_workers=max_workers)
        print("ready", flush=True)
        print(await loop.run_in_executor(executor, checksum, "shard-0.parquet", seconds), flush=True)

    trio_asyncio.run(trio_asyncio.aio_as_trio(amain))
