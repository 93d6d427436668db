"""Shape: an asyncio client connected to a server process (a child) that answers a long poll only
every 6 s: the client's loop waits in epoll_wait on a socket whose peer is alive and idle."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import _field

SERVER = """
import asyncio, sys

async def handle(reader, writer):
    while line := await reader.readline():
        await asyncio.sleep(float(line))  # the long poll: an answer when there is news
        writer.write(b"news\\n")
        await writer.drain()
    writer.close()

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await asyncio.sleep(float(sys.argv[1]))

asyncio.run(main())
"""


async def poll(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    first = True
    while not _field.over():
        writer.write(f"{min(6.0, _field.left())}\n".encode())
        await writer.drain()
        if first:
            _field.ready()
            first = False
        assert await reader.readline() == b"news\n"
    writer.close()
    await writer.wait_closed()


def main() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(_field.SECONDS + 30)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        asyncio.run(poll(int(server.stdout.readline())))
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
