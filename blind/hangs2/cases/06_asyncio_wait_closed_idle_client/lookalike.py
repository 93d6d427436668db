# Look-alike: the same wait_closed() while the client sends its line 16 s later (a timer of the loop).
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
    asyncio.get_running_loop().call_later(16, writer.write, b"bye\n")
    print("ready", flush=True)
    await server.wait_closed()
    writer.close()

asyncio.run(main())
print("done")
