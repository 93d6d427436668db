import asyncio


def run(renotify_after: float | None = None) -> None:
    async def main() -> None:
        cond = asyncio.Condition()
        items: list[str] = []

        async def consumer(name: str) -> None:
            async with cond:
                while not items:
                    await cond.wait()
                print(name, "took", items.pop(), flush=True)

        w1 = asyncio.create_task(consumer("w1"))
        w2 = asyncio.create_task(consumer("w2"))
        await asyncio.sleep(0.1)                       # both consumers wait on the condition
        async with cond:
            items.append("job-1")
            cond.notify(1)                             # wake one consumer for the one item
            w1.cancel()                                # ... while w1's request is cancelled (client gone)
        if renotify_after is not None:
            async def producer() -> None:
                await asyncio.sleep(renotify_after)    # a periodic sweep re-notifies
                async with cond:
                    cond.notify_all()
            asyncio.create_task(producer())
        print("ready", flush=True)
        await w2
        print("done", flush=True)

    asyncio.run(main())
