import asyncio
import os
import signal
import threading


def run(install, stop_after, heartbeat):
    stop = asyncio.Event()

    def on_sigterm(*_):
        stop.set()
        print("SIGTERM received, stopping", flush=True)

    async def main():
        if install == "signal.signal":
            signal.signal(signal.SIGTERM, on_sigterm)
        else:                                   # the fix: the loop's own signal handling
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, on_sigterm)

        async def beat():
            while not stop.is_set():
                await asyncio.sleep(1)

        tasks = [asyncio.create_task(beat())] if heartbeat else []
        # the orchestrator ("docker stop") sends SIGTERM
        threading.Timer(stop_after, os.kill, (os.getpid(), signal.SIGTERM)).start()
        print("ready", flush=True)
        await stop.wait()
        for t in tasks:
            await t
        print("service stopped", flush=True)

    asyncio.run(main())
