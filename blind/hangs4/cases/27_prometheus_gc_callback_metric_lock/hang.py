# prometheus/client_python#363 ("Garbage collector metrics lead to deadlock", fixed by PR #371 in 0.6.0):
# the default GC collector updates histograms from a gc.callbacks hook; when a collection starts while
# the scrape thread holds one of those histograms' value locks (MutexValue.get), the hook's observe()
# waits for the same non-reentrant lock in the same thread. The scrape never answers and the scraper
# (here the main thread) waits for the HTTP response. Made deterministic as in the reproducer: a
# collection is run inside MutexValue.get(). prometheus_client 0.5.0 on CPython 3.8.18.
import gc
import socket
import threading
import urllib.request

from prometheus_client import start_http_server, values


class MutexValue(object):
    """prometheus_client 0.5.0's MutexValue, with a collection falling inside get() (issue #363)."""
    _multiprocess = False

    def __init__(self, typ, metric_name, name, labelnames, labelvalues, **kwargs):
        self._value = 0.0
        self._lock = threading.Lock()

    def inc(self, amount):
        with self._lock:
            self._value += amount

    def set(self, value):
        with self._lock:
            self._value = value

    def get(self):
        with self._lock:
            gc.collect()
            return self._value


values.ValueClass = MutexValue

from prometheus_client import Counter  # noqa: E402  (metrics created after the value class is set)

rows = Counter("rows_loaded", "Rows loaded")
rows.inc(1000)
probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
start_http_server(port, addr="127.0.0.1")
gc.collect()                                     # the GC histograms have samples
print("ready", flush=True)
with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics") as resp:   # the scrape
    print("scraped", len(resp.read()), "bytes")
