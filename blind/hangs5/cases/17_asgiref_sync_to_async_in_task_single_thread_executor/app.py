import asyncio
import time

from asgiref.sync import async_to_sync, sync_to_async


def run(in_task, write_seconds):
    def db_write():
        time.sleep(write_seconds)
        print("db_write() done", flush=True)

    async def io_task():
        await sync_to_async(db_write)()            # thread_sensitive=True (the default since 3.3)

    async def view_async_part():
        if in_task:
            await asyncio.create_task(io_task())   # as asyncio.gather / wait_for / shield do
        else:
            await io_task()

    def view():                                    # a sync view (or sync middleware)
        print("ready", flush=True)
        async_to_sync(view_async_part)()

    async def server_entry():                      # the ASGI server calls the sync view
        await sync_to_async(view)()

    asyncio.run(server_entry())
    print("response sent", flush=True)
