# python/cpython#109934 ("concurrent.futures.wait returns cancelled as 'not done'"; with timeout=None it hangs)
# and python/cpython#92001 ("concurrent.futures.wait() waits forever if given a cancelled future"): a batch
# converter shuts its ThreadPoolExecutor down with cancel_futures=True after the first shard fails, then waits for
# all futures. The cancelled futures are in state CANCELLED, never CANCELLED_AND_NOTIFIED: only a worker calling
# set_running_or_notify_cancel() would notify the waiter, and the executor has shut down. CPython 3.13.0.
from common import run

if __name__ == "__main__":
    run(slow=0, drop_cancelled=False)
