# Another user's download job on the same Hugging Face cache, started independently of the program under
# test: it takes the blob's lock, reports on fd argv[2], and then stalls (a download stuck on a slow
# mirror); argv[4], if given: seconds after which it finishes and releases the lock. (Harness hygiene:
# it also leaves when the program that launched it, pid argv[3], is gone.)
import os
import sys
import time

from huggingface_hub.utils import WeakFileLock

launcher = int(sys.argv[3])
deadline = time.time() + (float(sys.argv[4]) if len(sys.argv) > 4 else 10**7)
with WeakFileLock(sys.argv[1]):
    os.write(int(sys.argv[2]), b"locked\n")
    while time.time() < deadline:
        try:
            os.kill(launcher, 0)
        except ProcessLookupError:
            break
        time.sleep(min(1.0, max(0.0, deadline - time.time())))
