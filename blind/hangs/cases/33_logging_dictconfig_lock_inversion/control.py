# Control: the fix pattern of open-telemetry/opentelemetry-python#4636 and the rule from the
# Routstr review ("never take the module lock while holding the handler lock"): emit() only hands
# the record to a sender thread; the library call that logs runs there, outside the handler lock.
import logging, logging.config, queue, threading, time

class ShippingHandler(logging.Handler):
    def __init__(self):
        super().__init__()
        self.outbox = queue.SimpleQueue()
        self.sender = threading.Thread(target=self._send, daemon=True)
        self.sender.start()
    def _send(self):
        while (msg := self.outbox.get()) is not None:
            logging.getLogger("shipping.client").debug("sending %s", msg)
    def emit(self, record):
        in_emit.set()
        while logging._lock.acquire(blocking=False):
            logging._lock.release(); time.sleep(0.01)
        self.outbox.put(record.getMessage())

in_emit = threading.Event()
root = logging.getLogger()
handler = ShippingHandler()
root.addHandler(handler)
root.setLevel(logging.INFO)

worker = threading.Thread(target=root.info, args=("request served",))
worker.start()
in_emit.wait(10)
print("ready", flush=True)
logging.config.dictConfig({"version": 1, "root": {"level": "INFO"}})
worker.join()
handler.outbox.put(None); handler.sender.join(10)
print("done")
