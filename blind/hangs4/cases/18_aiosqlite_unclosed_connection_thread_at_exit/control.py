# Control: the fix recommended in omnilib/aiosqlite#299: the connection is used as an async context
# manager, so it is closed (its thread stopped) on the exception path too; the interpreter exits.
# aiosqlite 0.21.0 on CPython 3.11.7.
import asyncio
import os

import aiosqlite

DB = os.path.abspath("features.db")


async def load_features():
    async with aiosqlite.connect(DB) as db:          # the fix: the connection is closed on every path
        await db.execute("CREATE TABLE IF NOT EXISTS feat (id INTEGER PRIMARY KEY, value REAL)")
        await db.executemany("INSERT INTO feat (value) VALUES (?)", [(i / 7,) for i in range(1000)])
        await db.commit()
        async with db.execute("SELECT count(*), avg(value) FROM feat") as cur:
            row = await cur.fetchone()
        if row[0] > 0:
            raise ValueError(f"feature table not normalised: mean {row[1]:.3f}")


try:
    asyncio.run(load_features())
except ValueError as exc:
    print("load failed:", exc)
print("ready", flush=True)            # the interpreter now exits and joins the connection thread
