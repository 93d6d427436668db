# Control: the fix of awolverp/cachebox#54 (PR #55, cachebox 6.2.10): the decorator's stampede lock is
# configurable and is turned off here (lock=False), so the re-entrant lookup computes the flag itself
# and the program ends. CPython 3.11.7.
import logging
import threading

import cachebox

FLAGS = {"log_sampling": 1.0, "new_loader": True}
guard = threading.local()


@cachebox.cached(cachebox.TTLCache(16, 60), lock=False)
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
