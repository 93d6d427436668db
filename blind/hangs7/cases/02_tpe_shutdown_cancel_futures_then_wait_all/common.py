import time
from concurrent.futures import ThreadPoolExecutor, wait


def convert(shard: int, slow: float) -> int:
    if shard == 0 and slow == 0:
        raise ValueError("shard 0: corrupt header")
    time.sleep(slow if shard == 1 else 0.2)
    return shard


def run(slow: float, drop_cancelled: bool) -> None:
    ex = ThreadPoolExecutor(max_workers=1, thread_name_prefix="convert")
    futs = [ex.submit(convert, shard, slow) for shard in range(8)]
    if futs[0].exception() is not None:            # first shard failed: abort the rest of the batch
        print("shard 0 failed, cancelling the batch", flush=True)
        ex.shutdown(wait=True, cancel_futures=True)
    todo = [f for f in futs if not f.cancelled()] if drop_cancelled else futs
    print("ready", flush=True)
    done, not_done = wait(todo)                    # no timeout: collect every outcome
    print(f"collected {len(done)} outcomes", flush=True)
    ex.shutdown()
