# python/cpython#96727 ("logging deadlock when dictConfig or fileConfig used concurrently with
# custom handlers"; same in Routstr/routstr-core#696 review, open-telemetry/opentelemetry-python
# #4636): dictConfig holds logging's module lock and then takes each old handler's lock
# (_clearExistingHandlers -> shutdown); a custom handler's emit, holding its handler lock, calls
# logging.getLogger(), which takes the module lock. Opposite orders on two locks.
import logging, logging.config, threading, time

class ShippingHandler(logging.Handler):
    """A custom handler whose emit() uses a library that logs (getLogger inside emit)."""
    def emit(self, record):
        in_emit.set()
        while logging._lock.acquire(blocking=False):      # until dictConfig holds the module lock
            logging._lock.release(); time.sleep(0.01)
        logging.getLogger("shipping.client").debug("sending %s", record.getMessage())

in_emit = threading.Event()
root = logging.getLogger()
root.addHandler(ShippingHandler())
root.setLevel(logging.INFO)

worker = threading.Thread(target=root.info, args=("request served",))
worker.start()
in_emit.wait(10)
print("ready", flush=True)
logging.config.dictConfig({"version": 1, "root": {"level": "INFO"}})   # reconfigure at runtime
worker.join()
print("done")
