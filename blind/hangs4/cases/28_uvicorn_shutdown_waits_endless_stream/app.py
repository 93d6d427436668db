# An ASGI app with a server-sent-events endpoint: it streams a tick every 0.5 s until the client
# disconnects (it watches receive() for http.disconnect, as sse-starlette does).
import asyncio

async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            m = await receive()
            if m["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif m["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"}); return
    assert scope["type"] == "http"
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
    disconnected = asyncio.Event()
    async def watch():
        while True:
            m = await receive()
            if m["type"] == "http.disconnect":
                disconnected.set(); return
    watcher = asyncio.create_task(watch())
    n = 0
    while not disconnected.is_set():
        n += 1
        await send({"type": "http.response.body", "body": b"data: tick %d\n\n" % n, "more_body": True})
        try:
            await asyncio.wait_for(disconnected.wait(), 0.5)
        except asyncio.TimeoutError:
            pass
    watcher.cancel()
    try:
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    except Exception:
        pass
