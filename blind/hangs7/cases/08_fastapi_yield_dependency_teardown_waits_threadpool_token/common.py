import asyncio
import queue

import anyio
import httpx
from fastapi import Depends, FastAPI


class ConnectionPool:
    """Stands for SQLAlchemy's QueuePool with pool_timeout=None: checkout blocks until a connection is back."""

    def __init__(self, size: int) -> None:
        self.q: "queue.Queue[str]" = queue.Queue()
        for i in range(size):
            self.q.put(f"conn-{i}")

    def checkout(self) -> str:
        return self.q.get()

    def checkin(self, conn: str) -> None:
        self.q.put(conn)


def build_app(pool: ConnectionPool, work: float) -> FastAPI:
    def get_db():                              # sync dependency with yield: setup and teardown run in the threadpool
        conn = pool.checkout()
        try:
            yield conn
        finally:
            pool.checkin(conn)

    app = FastAPI()

    @app.get("/items/{i}")
    async def read_item(i: int, db: str = Depends(get_db)) -> dict:   # async endpoint: runs on the event loop
        await asyncio.sleep(work)
        return {"item": i, "conn": db}

    return app


async def main(pool_size: int, requests: int, work: float) -> None:
    limiter = anyio.to_thread.current_default_thread_limiter()
    app = build_app(ConnectionPool(pool_size), work)
    async with httpx.AsyncClient(app=app, base_url="http://api") as client:
        tasks = [asyncio.create_task(client.get(f"/items/{i}")) for i in range(requests)]
        await asyncio.sleep(1.0)
        print(f"threadpool tokens: {limiter.total_tokens}", flush=True)
        print("ready", flush=True)
        responses = await asyncio.gather(*tasks)
    print("served", sum(r.status_code == 200 for r in responses), "requests", flush=True)


def run(pool_size: int, requests: int, work: float) -> None:
    asyncio.run(main(pool_size, requests, work))
