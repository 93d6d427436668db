# Look-alike: the same wait on the blob lock (huggingface_hub 0.25.2, CPython 3.11.7) held by the other
# job outside this program's tree, whose download finishes after 16 s and releases the lock.
import logging
import os

from huggingface_hub.utils import WeakFileLock

from common import start_other_job

logging.basicConfig(level=logging.INFO)
lock_path = os.path.abspath("models--acme--tiny-bert.blob.lock")
print("other job:", start_other_job(lock_path, "16").decode())
print("ready", flush=True)
with WeakFileLock(lock_path):                 # the other job's download finishes after 16 s
    print("got the blob")
