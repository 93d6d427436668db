# Control: the mitigation asked for in huggingface/huggingface_hub#2543 (and applied by the stall watchdog of
# noonghunna/club-3090#728): the wait for the cache lock is bounded (2 s); on timeout the program falls
# back to a private download directory and ends. filelock 4.3.1 on CPython 3.11.7 (same venv).
import logging
import os

from filelock import FileLock, Timeout

from common import start_other_job

logging.basicConfig(level=logging.INFO)
lock_path = os.path.abspath("models--acme--tiny-bert.blob.lock")
print("other job:", start_other_job(lock_path).decode())
print("ready", flush=True)
try:
    with FileLock(lock_path, timeout=2):      # the fix: a bounded wait, then a fallback
        print("got the blob")
except Timeout:
    print("cache busy: downloading to a private directory instead")
