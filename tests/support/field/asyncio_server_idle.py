"""Shape: an asyncio TCP server that nobody connects to (idle by design): the event loop sits in
epoll_wait with its listening socket and no timer but the one that ends the job."""

from __future__ import annotations

import asyncio

import _field


async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(await reader.readline())
    await writer.drain()
    writer.close()


async def serve() -> None:
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    async with server:
        _field.ready()
        await asyncio.sleep(_field.left())


def main() -> None:
    asyncio.run(serve())


if __name__ == "__main__":
    main()
