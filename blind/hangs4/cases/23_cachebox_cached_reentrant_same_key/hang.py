# awolverp/cachebox#54 ("Inherent lock for `cached` method causes deadlocks in some situations"): the
# @cached decorator takes a per-key lock (cache stampede prevention) around the computation; a
# computation that re-enters the same cached function with the same key in the same thread ("simulate
# ddtrace/log handler re-entering the same flag eval") waits on the lock it holds. Here a feature-flag
# lookup logs, and the logging filter asks for the log-sampling flag. cachebox 6.0.0 on CPython 3.11.7
# (fixed in 6.x by #55: the lock can be disabled or replaced, e.g. lock=False).
import logging
import threading

import cachebox

FLAGS = {"log_sampling": 1.0, "new_loader": True}
guard = threading.local()


@cachebox.cached(cachebox.TTLCache(16, 60))
def get_flag(name):
    value = FLAGS[name]                       # stands for a remote config fetch
    log.info("flag %s loaded", name)
    return value


class SamplingFilter(logging.Filter):
    def filter(self, record):
        if getattr(guard, "active", False):   # no sampling for the filter's own records
            return True
        guard.active = True
        try:
            return get_flag("log_sampling") > 0.5
        finally:
            guard.active = False


log = logging.getLogger("flags")
handler = logging.StreamHandler()
handler.addFilter(SamplingFilter())
log.addHandler(handler)
log.setLevel(logging.INFO)
print("ready", flush=True)
print("sampling:", get_flag("log_sampling"))  # -> log.info -> filter -> get_flag(same key) -> lock
print("new loader:", get_flag("new_loader"))
