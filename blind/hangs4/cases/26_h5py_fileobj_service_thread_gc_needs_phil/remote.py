import gc
import io
import queue
import threading
import time

requests = queue.Queue()


class RemoteFile(io.RawIOBase):
    """A file-like object whose reads are served by an IO service thread (as fsspec's IO loop does);
    the caller polls the reply Event every second, like fsspec.asyn.sync()."""

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def seek(self, offset, whence=0):
        self.pos = {0: offset, 1: self.pos + offset, 2: len(self.data) + offset}[whence]
        return self.pos

    def tell(self):
        return self.pos

    def readinto(self, b):
        done, box = threading.Event(), {}
        requests.put((self, self.pos, len(b), box, done))
        while not done.wait(1):
            pass
        n = len(box["data"])
        b[:n] = box["data"]
        self.pos += n
        return n


def service(first_delay=0.0):
    first = True
    while True:
        f, pos, n, box, done = requests.get()
        if first:
            first = False
            time.sleep(first_delay)             # (look-alike: a slow first request)
            if gc.isenabled():
                gc.collect()                    # an automatic collection that falls in this thread
        box["data"] = f.data[pos:pos + n]
        done.set()


def start_service(first_delay=0.0):
    threading.Thread(target=service, args=(first_delay,), daemon=True, name="io-service").start()
