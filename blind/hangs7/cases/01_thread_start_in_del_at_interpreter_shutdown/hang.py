# python/cpython#87950 (bpo-43784, "starting a thread in __del__ hangs at interpreter shutdown"): a module-level
# object's __del__ starts a thread to flush its spool. It runs during interpreter finalization; the new thread
# tries to take the GIL, sees the interpreter finalizing and exits at once, without ever setting the
# Thread._started event; Thread.start() waits for that event forever. CPython 3.11.7.
from common import SpoolUploader

uploader = SpoolUploader(upload_seconds=0.2)       # global: collected at interpreter shutdown
print("job finished, exiting", flush=True)
