# Look-alike: prometheus_client 0.5.0 with its GC collector and the same scrape, but no collection falls
# inside a value lock; a custom collector takes 16 s to answer (a slow warehouse query), so the scraper
# waits for the HTTP response, then gets it. CPython 3.8.18.
import gc
import socket
import threading
import time
import urllib.request

from prometheus_client import start_http_server, values


class MutexValue(object):
    """prometheus_client 0.5.0's MutexValue (no collection inside get())."""
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
            return self._value


values.ValueClass = MutexValue

from prometheus_client import REGISTRY, Counter  # noqa: E402  (metrics created after the value class is set)
from prometheus_client.core import GaugeMetricFamily  # noqa: E402

class WarehouseCollector:
    """A custom collector that queries a slow warehouse (16 s) at scrape time."""

    def describe(self):
        return []                                    # (so registering does not run collect())

    def collect(self):
        time.sleep(16)
        yield GaugeMetricFamily("warehouse_rows", "Rows in the warehouse", value=42)


REGISTRY.register(WarehouseCollector())
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
