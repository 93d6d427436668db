# Look-alike: the same dictConfig at runtime while a worker thread is inside the custom handler's
# emit() (holding its lock) for 16 s of slow I/O; dictConfig waits for that handler lock.
import logging, logging.config, threading, time

class ShippingHandler(logging.Handler):
    def emit(self, record):
        in_emit.set()
        time.sleep(16)                                    # a slow network send

in_emit = threading.Event()
root = logging.getLogger()
root.addHandler(ShippingHandler())
root.setLevel(logging.INFO)

worker = threading.Thread(target=root.info, args=("request served",))
worker.start()
in_emit.wait(10)
print("ready", flush=True)
logging.config.dictConfig({"version": 1, "root": {"level": "INFO"}})
worker.join()
print("done")
