# Control: the fix of #160: drop (close) the idle connection before waiting for the server.
import asyncio

async def handle(reader, writer):
    await reader.readline()
    writer.close()

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    await asyncio.sleep(0.2)
    server.close()
    print("ready", flush=True)
    writer.close()
    await server.wait_closed()

asyncio.run(main())
print("done")
