# agronholm/apscheduler#441 ("Try/Catching SchedulerAlreadyRunningError hangs BackgroundScheduler", fixed
# in 3.7.0 by commit 9f7c1dc): BackgroundScheduler.start() replaces its wake-up Event before the base
# class raises SchedulerAlreadyRunningError, so the scheduler thread keeps waiting on the old Event (for
# TIMEOUT_MAX, about 49.7 days, since no job is due) while shutdown() sets the new one and joins the
# thread. Here the service's init runs twice (a plugin re-initialises it) and tolerates the second start.
# APScheduler 3.6.3 on CPython 3.11.7.
import pytz
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import SchedulerAlreadyRunningError

scheduler = BackgroundScheduler(timezone=pytz.utc)


def init_service():
    try:
        scheduler.start()
    except SchedulerAlreadyRunningError:
        print("scheduler already running")


init_service()
init_service()                          # e.g. a plugin calls the service's init again
print("ready", flush=True)
scheduler.shutdown()                    # sets the new Event, joins the thread waiting on the old one
print("stopped")
