import asyncio

import asyncpg

from pg import start_postgres


async def make_pool(dsn):
    pool = await asyncpg.create_pool(dsn, min_size=1, max_size=1)    # a small pool for the worker
    async with pool.acquire() as c:
        await c.execute("create table orders(id int primary key, total numeric);"
                        "insert into orders select g, g * 1.5 from generate_series(1, 100) g")
    return pool


def main(coro_fn):
    server, dsn = start_postgres()
    try:
        asyncio.run(coro_fn(dsn))
    finally:
        server.terminate()
        server.wait(timeout=60)
