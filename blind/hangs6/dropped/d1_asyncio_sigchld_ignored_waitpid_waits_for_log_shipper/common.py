import asyncio
import signal
import subprocess
import sys

SHIPPER = "import sys\nfor line in sys.stdin:\n    pass\n"


def run(step_code: str, ignore_sigchld: bool) -> None:
    if ignore_sigchld:
        # the embedding host (bpo-32115's tst.c) starts Python with SIGCHLD ignored; Python keeps the disposition
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    # long-lived helper: ships the job's log lines, ends at EOF of its stdin (closed when the job is done)
    shipper = subprocess.Popen([sys.executable, "-c", SHIPPER], stdin=subprocess.PIPE)

    async def main() -> None:
        proc = await asyncio.create_subprocess_exec(sys.executable, "-c", step_code)
        print("ready", flush=True)
        rc = await proc.wait()
        print("step done, rc", rc, flush=True)

    asyncio.run(main())
    assert shipper.stdin is not None
    shipper.stdin.close()
    shipper.wait()
    print("job done", flush=True)
