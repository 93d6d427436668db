# Look-alike: the same one-connection pool and untimed acquire() (asyncpg 0.29.0, CPython 3.11.7); the
# connection is held by another task running a 16 s report; the request's acquire() waits for it, then
# runs its query.
import asyncio

from common import main, make_pool


async def report(pool, started):
    async with pool.acquire() as conn:
        started.set()
        await conn.execute("select pg_sleep(16)")


async def handle_request(dsn):
    pool = await make_pool(dsn)
    started = asyncio.Event()
    task = asyncio.create_task(report(pool, started))
    await started.wait()
    print("ready", flush=True)
    async with pool.acquire() as conn:
        total = await conn.fetchval("select total from orders where id = $1", 1)
    print("total", total)
    await task
    await pool.close()


main(handle_request)
