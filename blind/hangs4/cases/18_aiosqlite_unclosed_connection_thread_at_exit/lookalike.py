# Look-alike: aiosqlite 0.21.0 and the same leaked connection; at exit the interpreter joins its thread,
# and a cleanup timer (another non-daemon thread) closes the connection 16 s later, which stops the
# thread and lets the interpreter exit. CPython 3.11.7.
import asyncio
import os
import threading

import aiosqlite

DB = os.path.abspath("features.db")
leaked = []


async def load_features():
    db = await aiosqlite.connect(DB)
    leaked.append(db)
    await db.execute("CREATE TABLE IF NOT EXISTS feat (id INTEGER PRIMARY KEY, value REAL)")
    await db.executemany("INSERT INTO feat (value) VALUES (?)", [(i / 7,) for i in range(1000)])
    await db.commit()
    async with db.execute("SELECT count(*), avg(value) FROM feat") as cur:
        row = await cur.fetchone()
    if row[0] > 0:
        raise ValueError(f"feature table not normalised: mean {row[1]:.3f}")   # skips db.close()
    await db.close()


def close_later():
    asyncio.run(leaked[0].close())         # a cleanup hook closes the leaked connection 16 s later


try:
    asyncio.run(load_features())
except ValueError as exc:
    print("load failed:", exc)
threading.Timer(16, close_later).start()
print("ready", flush=True)            # the interpreter now exits and joins the connection thread
