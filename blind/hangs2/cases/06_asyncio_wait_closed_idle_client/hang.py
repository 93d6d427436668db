# CodeAbra/iai-personal-memory-engine#160 (CPython 3.12.1+ Server.wait_closed() waits for every
# connection to drop): the server's handler waits in readline() for an idle client whose socket
# is held by the very coroutine that awaits wait_closed().
import asyncio

async def handle(reader, writer):
    await reader.readline()
    writer.close()

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    await asyncio.sleep(0.2)  # let the server accept and start the handler
    server.close()
    print("ready", flush=True)
    await server.wait_closed()
    writer.close()

asyncio.run(main())
print("done")
