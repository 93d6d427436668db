# Control: the same program on APScheduler 3.7.0 (fix of agronholm/apscheduler#441: the Event is only
# replaced once the start is allowed), so shutdown() wakes the scheduler thread and joins it. CPython 3.11.7.
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
