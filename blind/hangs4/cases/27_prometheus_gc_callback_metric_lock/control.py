# Control: the same program on prometheus_client 0.6.0 (fix of prometheus/client_python#363, PR #371: the
# GC collector reads gc.get_stats() at scrape time instead of updating histograms from a gc callback),
# so the collection inside get() touches no metric lock; the scrape answers. CPython 3.8.18.
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
