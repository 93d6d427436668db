# Control: the pattern asyncpg documents after MagicStack/asyncpg#5: the helper uses the caller's
# connection instead of acquiring a second one from the pool. asyncpg 0.29.0 on CPython 3.11.7.
from common import main, make_pool


async def order_total(conn, order_id):
    return await conn.fetchval("select total from orders where id = $1", order_id)


async def handle_request(dsn):
    pool = await make_pool(dsn)
    async with pool.acquire() as conn:
        async with conn.transaction():
            ids = await conn.fetch("select id from orders where id <= 3")
            print("ready", flush=True)
            totals = [await order_total(conn, r["id"]) for r in ids]
    print("totals", totals)
    await pool.close()


main(handle_request)
