# Look-alike: APScheduler 3.6.3, the same BackgroundScheduler started once; a job (a 16 s compaction)
# is running in the scheduler's thread pool when the service shuts the scheduler down, so shutdown()
# waits (joins) for 16 s, then the job ends and everything exits. CPython 3.11.7.
import threading
import time
from datetime import datetime, timedelta

import pytz
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import SchedulerAlreadyRunningError

scheduler = BackgroundScheduler(timezone=pytz.utc)


def init_service():
    try:
        scheduler.start()
    except SchedulerAlreadyRunningError:
        print("scheduler already running")


started = threading.Event()


def compaction():
    started.set()
    time.sleep(16)
    print("compaction done")


init_service()
scheduler.add_job(compaction, "date", run_date=datetime.now(pytz.utc) + timedelta(seconds=0.2))
started.wait()
print("ready", flush=True)
scheduler.shutdown()                    # wakes the scheduler thread, waits for the running job
print("stopped")
