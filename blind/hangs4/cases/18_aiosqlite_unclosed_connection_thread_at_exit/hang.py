# omnilib/aiosqlite#299 ("Spawn threads as daemon so program will exit with main thread") and #290: an
# aiosqlite Connection is a non-daemon thread that loops on a blocking queue.get(); if the program does
# not close the connection (here an exception path skips the close), the interpreter's exit joins that
# thread forever and nothing will ever put the stop request. aiosqlite 0.21.0 on CPython 3.11.7 (fixed
# in 0.22 by PR #355: the worker thread is stopped when the connection object is collected).
import asyncio
import os

import aiosqlite

DB = os.path.abspath("features.db")


async def load_features():
    db = await aiosqlite.connect(DB)
    await db.execute("CREATE TABLE IF NOT EXISTS feat (id INTEGER PRIMARY KEY, value REAL)")
    await db.executemany("INSERT INTO feat (value) VALUES (?)", [(i / 7,) for i in range(1000)])
    await db.commit()
    async with db.execute("SELECT count(*), avg(value) FROM feat") as cur:
        row = await cur.fetchone()
    if row[0] > 0:
        raise ValueError(f"feature table not normalised: mean {row[1]:.3f}")   # skips db.close()
    await db.close()


try:
    asyncio.run(load_features())
except ValueError as exc:
    print("load failed:", exc)
print("ready", flush=True)            # the interpreter now exits and joins the connection thread
