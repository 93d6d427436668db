# Look-alike: cachebox 6.0.0 and the same cached lookup; a prefetch thread is computing the same key
# (a slow 16 s config fetch) when the main thread asks for it, so the main thread waits on the per-key
# lock until the prefetch stores the value, then gets it. CPython 3.11.7.
import logging
import threading
import time

import cachebox

FLAGS = {"log_sampling": 1.0, "new_loader": True}
guard = threading.local()


@cachebox.cached(cachebox.TTLCache(16, 60))
def get_flag(name):
    if threading.current_thread().name == "prefetch" and name == "new_loader":
        time.sleep(16)                        # the prefetch's remote config fetch is slow
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
guard.active = True                           # (the look-alike logs without sampling)
prefetch = threading.Thread(target=get_flag, args=("new_loader",), name="prefetch")
prefetch.start()                              # holds the per-key lock of "new_loader" for 16 s
time.sleep(0.2)                               # (let the prefetch take the key's lock first)
print("ready", flush=True)
print("new loader:", get_flag("new_loader"))  # waits on the per-key lock held by the prefetch
prefetch.join()
