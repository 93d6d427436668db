# python/cpython#64325 (bpo-20126, "sched doesn't handle at the expected time those events which are added after
# scheduler starts"): sched.scheduler.run() computes the delay to the earliest event it knows and calls
# delayfunc (time.sleep) for all of it; an event entered later from another thread, due in 0.5 s, is not looked
# at until that sleep ends. The scheduler thread sleeps a day towards the nightly event; the main thread waits for
# the flush event. Only the clock ends it. CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(nightly_in=86400.0, add_before_start=False)
