# MagicStack/asyncpg#5 ("Document pool.acquire(): specifically document that the below pattern will
# cause a deadlock under load": an `async with pool.acquire()` nested inside another in the same task)
# and hushh-labs/hushh-research#5871 ("asyncpg's Pool.acquire() waits indefinitely when every pooled
# connection is checked out ... a small pool combined with an unbounded wait is a hang"): the request
# handler holds a pooled connection and calls a helper that acquires its own; with every connection of
# the pool held by the caller, the helper's acquire() (no timeout) waits for a release only the waiting
# task could make. asyncpg 0.29.0 on CPython 3.11.7; PostgreSQL 15 (Debian) as a child process.
from common import main, make_pool


async def order_total(pool, order_id):
    async with pool.acquire() as conn:                     # the helper takes its own connection
        return await conn.fetchval("select total from orders where id = $1", order_id)


async def handle_request(dsn):
    pool = await make_pool(dsn)
    async with pool.acquire() as conn:
        async with conn.transaction():
            ids = await conn.fetch("select id from orders where id <= 3")
            print("ready", flush=True)
            totals = [await order_total(pool, r["id"]) for r in ids]
    print("totals", totals)
    await pool.close()


main(handle_request)
