# huggingface/huggingface_hub#2543 ("Lock acquisition fails on download": "still waiting to acquire lock
# on .../.locks/models--.../<blob>.lock" repeated forever): hf_hub's WeakFileLock waits for a download
# lock with no overall timeout (it retries FileLock.acquire with a 10 s timeout and logs). Here another
# job outside this program (started from another terminal on the same cache) holds the blob's lock while
# its own download stalls; this program waits for it, with nothing in its process tree able to end the
# wait. huggingface_hub 0.25.2 (filelock 4.3.1) on CPython 3.11.7.
import logging
import os

from huggingface_hub.utils import WeakFileLock

from common import start_other_job

logging.basicConfig(level=logging.INFO)
lock_path = os.path.abspath("models--acme--tiny-bert.blob.lock")
print("other job:", start_other_job(lock_path).decode())
print("ready", flush=True)
with WeakFileLock(lock_path):                 # polls the flock; logs every 10 s
    print("got the blob")
