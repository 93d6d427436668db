# Control: the fixed release: CPython 3.12.1 refuses to start a thread during finalization
# (RuntimeError "can't create new thread at interpreter shutdown", printed as an ignored exception in __del__),
# so the process exits.
from common import SpoolUploader

uploader = SpoolUploader(upload_seconds=0.2)
print("job finished, exiting", flush=True)
