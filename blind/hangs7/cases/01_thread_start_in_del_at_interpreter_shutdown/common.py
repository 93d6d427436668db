import os
import threading
import time


class SpoolUploader:
    """Keeps rows spooled in memory and uploads them from a background thread when it is collected
    (the `__del__` flush pattern of python/cpython#87950)."""

    def __init__(self, upload_seconds: float) -> None:
        self.rows = [f"row-{i}" for i in range(1000)]
        self.upload_seconds = upload_seconds

    def _upload(self) -> None:
        time.sleep(self.upload_seconds)            # stands for the network upload of the spool

    def __del__(self) -> None:
        os.write(1, b"ready\n")                    # sys.stdout may already be gone at shutdown
        t = threading.Thread(target=self._upload, name="spool-upload")
        t.start()                                  # waits for the new thread to signal it started
        t.join()
        os.write(1, b"spool uploaded\n")
